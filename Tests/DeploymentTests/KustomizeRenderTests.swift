import Foundation
import PassgateTestSupport
import Testing
import Yams

/// What `kubectl apply -k deploy/kubernetes` would send, rendered by kustomize itself.
@Suite("Kustomize rendering")
struct KustomizeRenderTests {
    @Test(
        "kubectl kustomize renders the directory, with hashed ConfigMap and Secret names wired into the pod",
        .enabled(if: Binaries.find("kubectl") != nil, "kubectl is not installed")
    )
    func kustomizeRenders() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("passgate-kustomize-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: work) }
        try FileManager.default.copyItem(atPath: Repository.path(Kubernetes.directory), toPath: work)
        for name in ShippedConfiguration.secretNames(in: try Repository.text(Repository.configurationFile)) {
            try "not-a-real-secret\n".write(toFile: "\(work)/secrets/\(name)", atomically: true, encoding: .utf8)
        }
        let result = try await Subprocess.run(try #require(Binaries.find("kubectl")), ["kustomize", work])
        try #require(result.status == 0, "kubectl kustomize failed: \(result.stderrText)")

        var documents = try Yams.load_all(yaml: result.stdoutText)
        var objects: [Manifest] = []
        while let document = documents.next() { objects.append(Manifest(file: "rendered", object: try YAMLMap(document, at: "rendered"))) }
        let configMap = try #require(objects.first { $0.kind == "ConfigMap" })
        let secret = try #require(objects.first { $0.kind == "Secret" })
        #expect(configMap.name.hasPrefix("passgate-config-") && secret.name.hasPrefix("passgate-secrets-"))
        #expect(try configMap.object.map("data").string("passgate.yaml") == Repository.text(Repository.configurationFile))
        let pod = try #require(objects.first { $0.kind == "Deployment" && $0.name == "passgate" }).object.map("spec").map("template").map("spec")
        let volumes = try pod.maps("volumes")
        let configMaps = volumes.compactMap { try? $0.map("configMap").string("name") }
        let secretNames = volumes.compactMap { try? $0.map("secret").string("secretName") }
        #expect(configMaps == [configMap.name] && secretNames == [secret.name])
        let redisPod = try #require(objects.first { $0.kind == "Deployment" && $0.name == "passgate-redis" }).object.map("spec").map("template").map("spec")
        #expect(try redisPod.maps("volumes").compactMap { try? $0.map("secret").string("secretName") } == [secret.name], "Redis's password comes from the same Secret")
        #expect(objects.filter { $0.kind != "Namespace" }.allSatisfy { (try? $0.object.map("metadata").string("namespace")) == "passgate" })
    }
}
