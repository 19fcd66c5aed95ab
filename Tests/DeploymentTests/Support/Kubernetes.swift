import Foundation
import Yams

/// One object of a manifest file under `deploy/kubernetes`.
struct Manifest {
    let file: String
    let object: YAMLMap

    var kind: String { (try? object.string("kind")) ?? "?" }
    var name: String { (try? object.map("metadata").string("name")) ?? "?" }
}

/// The manifests under `deploy/kubernetes`, read the way kubectl reads them (multi-document YAML).
enum Kubernetes {
    static let directory = "deploy/kubernetes"
    /// Not manifests: kustomize's own file, and the configuration its configMapGenerator embeds.
    static let nonManifests: Set<String> = ["kustomization.yaml", "passgate.yaml"]

    /// Every `.yaml`/`.yml` file in the directory (not recursive: secrets/ holds no YAML).
    static func yamlFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: Repository.path(directory))
            .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
            .sorted()
    }

    static func manifestFiles() throws -> [String] { try yamlFiles().filter { !nonManifests.contains($0) } }

    /// Every document of every manifest file; throws naming the file when one does not parse.
    static func manifests() throws -> [Manifest] {
        var result: [Manifest] = []
        for file in try manifestFiles() {
            let text = try Repository.text("\(directory)/\(file)")
            var documents: YamlSequence<Any>
            do {
                documents = try Yams.load_all(yaml: text)
            } catch {
                throw Failure("\(file) is not valid YAML: \(error)")
            }
            var index = 0
            while let document = documents.next() {
                result.append(Manifest(file: file, object: try YAMLMap(document, at: "\(file)#\(index)")))
                index += 1
            }
            if let error = documents.error { throw Failure("\(file) is not valid YAML: \(error)") }
            if index == 0 { throw Failure("\(file) holds no document") }
        }
        return result
    }

    static func object(_ kind: String, _ name: String) throws -> YAMLMap {
        guard let manifest = try manifests().first(where: { $0.kind == kind && $0.name == name }) else {
            throw Failure("no \(kind) named \(name) under \(directory)")
        }
        return manifest.object
    }

    static func kustomization() throws -> YAMLMap {
        try YAMLMap(try Yams.load(yaml: Repository.text("\(directory)/kustomization.yaml")), at: "kustomization.yaml")
    }

    /// The API Deployment's pod spec and its `passgate` container.
    static func apiPod() throws -> (pod: YAMLMap, container: YAMLMap) {
        let pod = try object("Deployment", "passgate").map("spec").map("template").map("spec")
        let containers = try pod.maps("containers")
        guard let container = containers.first(where: { (try? $0.string("name")) == "passgate" }) else {
            throw Failure("deployment.yaml has no container named passgate")
        }
        return (pod, container)
    }

    /// A port as a probe or a Service names it (a number, or the name of a container port) as a number.
    static func resolve(port: Any?, in container: YAMLMap) throws -> Int {
        if let number = port as? Int { return number }
        guard let name = port as? String else { throw Failure("port \(String(describing: port)) is neither a number nor a name") }
        for declared in try container.maps("ports") where (try? declared.string("name")) == name {
            return try declared.int("containerPort")
        }
        throw Failure("port name '\(name)' is not a port of container \((try? container.string("name")) ?? "?")")
    }
}
