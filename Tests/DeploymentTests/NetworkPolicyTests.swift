import Foundation
import Testing

/// The API pods' NetworkPolicy and the Redis password, checked against `passgate.yaml` and the
/// other manifests: a port changed in one place and not the other would cut Passgate off.
@Suite("Kubernetes: NetworkPolicy and the Redis password")
struct NetworkPolicyTests {
    /// Labels as one string in key order (`a=1,b=2`): a dictionary's `description` follows its
    /// per-process hash order, so two equal label sets could print differently.
    static func key(_ labels: [String: String]) -> String {
        labels.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
    }

    /// A rule's ports as `TCP/8080`.
    static func ports(_ rule: YAMLMap) throws -> Set<String> {
        Set(try rule.maps("ports").map { "\((try? $0.string("protocol")) ?? "TCP")/\(try $0.int("port"))" })
    }

    @Test("the API pods admit only server.port, and metrics.port from the monitoring namespace; they reach only DNS, the Redis pods and HTTPS")
    func apiPolicy() throws {
        let config = try Repository.configuration()
        let serverPort = try config.map("server").int("port")
        let metricsPort = try config.map("metrics").int("port")
        let apiLabels = try Kubernetes.object("Deployment", "passgate").map("spec").map("template").map("metadata").labels("labels")
        let redisLabels = try Kubernetes.object("Deployment", "passgate-redis").map("spec").map("template").map("metadata").labels("labels")
        let redisPort = try #require(try Kubernetes.object("Service", "passgate-redis").map("spec").maps("ports").first).int("port")

        let policy = try Kubernetes.object("NetworkPolicy", "passgate-api").map("spec")
        #expect(try policy.map("podSelector").labels("matchLabels") == apiLabels)
        #expect(Set(try policy.strings("policyTypes")) == ["Ingress", "Egress"], "without Egress in policyTypes egress is not restricted")

        var ingress: [String: Set<String>] = [:]
        for rule in try policy.maps("ingress") {
            // A rule without ports admits every port: never.
            let ports = try Self.ports(rule)
            #expect(!ports.isEmpty, "an ingress rule without ports")
            let sources = rule.has("from") ? try rule.maps("from").map { Self.key(try $0.map("namespaceSelector").labels("matchLabels")) } : ["anywhere"]
            for source in sources { ingress[source, default: []].formUnion(ports) }
        }
        #expect(ingress["anywhere"] == ["TCP/\(serverPort)"], "callers reach server.port only: \(ingress)")
        #expect(ingress[Self.key(["kubernetes.io/metadata.name": "monitoring"])] == ["TCP/\(metricsPort)"], "Prometheus reaches metrics.port: \(ingress)")
        #expect(ingress.count == 2, "\(ingress)")

        var egress: [String: Set<String>] = [:]
        for rule in try policy.maps("egress") {
            let ports = try Self.ports(rule)
            #expect(!ports.isEmpty, "an egress rule without ports")
            let destinations = rule.has("to") ? try rule.maps("to").map { Self.key(try $0.map("podSelector").labels("matchLabels")) } : ["anywhere"]
            for destination in destinations { egress[destination, default: []].formUnion(ports) }
        }
        #expect(egress["anywhere"] == ["UDP/53", "TCP/53", "TCP/443"], "DNS and HTTPS only: \(egress)")
        #expect(egress[Self.key(redisLabels)] == ["TCP/\(redisPort)"], "the Redis pods on the port of state.redisURL: \(egress)")
        #expect(egress.count == 2, "\(egress)")
        #expect(try config.map("state").string("redisURL").contains(":\(redisPort)/"))
        for url in try config.map("providers").map("cmcc").strings("baseURLs") { #expect(url.hasPrefix("https://"), "443 covers \(url)") }
    }

    @Test("one secret file is both Redis's --requirepass and Passgate's state.redisPassword")
    func redisPassword() throws {
        let reference = try Repository.configuration().map("state").string("redisPassword")
        let name = try #require(ShippedConfiguration.secretNames(in: "redisPassword: \(reference)").first, "\(reference) is not a file: secret")

        let pod = try Kubernetes.object("Deployment", "passgate-redis").map("spec").map("template").map("spec")
        let container = try #require(try pod.maps("containers").first)
        let volumes = Dictionary(try pod.maps("volumes").map { (try $0.string("name"), $0) }, uniquingKeysWith: { $1 })
        var mounted: [String: String] = [:]  // path of the secret file in the container -> secret name
        for mount in try container.maps("volumeMounts") {
            guard let secret = try? #require(volumes[try mount.string("name")]).map("secret") else { continue }
            for item in try secret.maps("items") where try item.string("key") == name {
                mounted["\(try mount.string("mountPath"))/\(try item.string("path"))"] = try secret.string("secretName")
            }
        }
        let (path, secretName) = try #require(mounted.first, "the redis pod does not mount the key \(name)")
        #expect(secretName == "passgate-secrets")
        #expect(try Kubernetes.apiPod().pod.maps("volumes").contains { (try? $0.map("secret").string("secretName")) == secretName })

        // Kubernetes turns $$ into $ before the shell sees it.
        let command = (try container.strings("command") + container.strings("args")).joined(separator: " ").replacingOccurrences(of: "$$", with: "$")
        #expect(command.contains(#"--requirepass "$(cat \#(path))""#), "\(command)")
        #expect(!command.contains("--protected-mode no"), "with a password, protected mode need not be switched off")
    }
}
