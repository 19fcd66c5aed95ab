import Foundation
import PassgateServer
import Testing
import Yams

/// `deploy/kubernetes` as shipped: it parses, it holds what kustomization.yaml says, and every
/// number that must agree with the server (ports, paths, timeouts) agrees with `passgate.yaml`.
@Suite("Kubernetes manifests")
struct KubernetesManifestTests {
    @Test("every manifest parses, with exactly the expected kinds, and kustomization.yaml lists them all")
    func manifestsParse() throws {
        let manifests = try Kubernetes.manifests()
        for manifest in manifests {
            #expect(manifest.object.has("apiVersion"), "\(manifest.file): \(manifest.kind) has no apiVersion")
        }
        let objects = manifests.map { "\($0.kind)/\($0.name)" }
        #expect(objects.sorted() == [
            "Deployment/passgate", "Deployment/passgate-redis", "HorizontalPodAutoscaler/passgate", "Namespace/passgate",
            "NetworkPolicy/passgate-api", "NetworkPolicy/passgate-redis", "PodDisruptionBudget/passgate", "Service/passgate", "Service/passgate-redis",
        ])
        let versions = Dictionary(manifests.map { ($0.kind, (try? $0.object.string("apiVersion")) ?? "") }, uniquingKeysWith: { $1 })
        #expect(versions["HorizontalPodAutoscaler"] == "autoscaling/v2")
        #expect(versions["PodDisruptionBudget"] == "policy/v1")
        #expect(versions["Deployment"] == "apps/v1")

        let kustomization = try Kubernetes.kustomization()
        #expect(try kustomization.string("kind") == "Kustomization")
        #expect(Set(try kustomization.strings("resources")) == Set(try Kubernetes.manifestFiles()))
    }

    @Test("the ConfigMap carries passgate.yaml and the Secret every file: secret it references")
    func generators() throws {
        let kustomization = try Kubernetes.kustomization()
        let configMaps = try kustomization.maps("configMapGenerator")
        #expect(try configMaps.map { try $0.string("name") } == ["passgate-config"])
        #expect(try configMaps.first?.strings("files") == ["passgate.yaml"])

        let secrets = try kustomization.maps("secretGenerator")
        #expect(try secrets.map { try $0.string("name") } == ["passgate-secrets"])
        let secretFiles = try secrets.first?.strings("files") ?? []
        let referenced = ShippedConfiguration.secretNames(in: try Repository.text(Repository.configurationFile))
        #expect(!referenced.isEmpty)
        #expect(secretFiles.sorted() == referenced.map { "secrets/\($0)" }.sorted())
        let readme = try Repository.text("\(Kubernetes.directory)/secrets/README.md")
        for name in referenced { #expect(readme.contains("`\(name)`"), "secrets/README.md does not explain \(name)") }
        let ignore = try Repository.text("\(Kubernetes.directory)/secrets/.gitignore")
        #expect(ignore.split(separator: "\n").contains("*"), "secrets/.gitignore must keep secret files out of git")

        // The pod mounts exactly these objects where the configuration expects them.
        let (pod, container) = try Kubernetes.apiPod()
        let volumes = Dictionary(try pod.maps("volumes").map { (try $0.string("name"), $0) }, uniquingKeysWith: { $1 })
        let mounts = Dictionary(
            try container.maps("volumeMounts").map { (try $0.string("mountPath"), try $0.string("name")) }, uniquingKeysWith: { $1 })
        let configVolumeName = try #require(mounts["/etc/passgate"])
        let configVolume = try #require(volumes[configVolumeName])
        #expect(try configVolume.map("configMap").string("name") == "passgate-config")
        let secretVolumeName = try #require(mounts[ShippedConfiguration.secretsDirectory])
        let secretVolume = try #require(volumes[secretVolumeName])
        #expect(try secretVolume.map("secret").string("secretName") == "passgate-secrets")
        #expect(try container.strings("args") == ["serve", "--config", "/etc/passgate/passgate.yaml"])
    }

    @Test("the probes GET /readyz and /healthz, routes the server serves, on server.port")
    func probes() throws {
        let config = try Repository.configuration()
        let port = try config.map("server").int("port")
        let (_, container) = try Kubernetes.apiPod()
        let served = Set(passgateRoutes)
        let documented = try Self.documentedGetPaths()

        let metricsPort = try config.map("metrics").int("port")
        let ports = try container.maps("ports")
        #expect(try ports.map { try $0.int("containerPort") } == [port, metricsPort], "the container declares server.port and metrics.port, nothing else")
        #expect(try config.map("metrics").string("host") == "0.0.0.0", "Prometheus scrapes the pod IP")
        var paths: [String: String] = [:]
        for probe in ["startupProbe", "livenessProbe", "readinessProbe"] {
            let get = try container.map(probe).map("httpGet")
            let path = try get.string("path")
            paths[probe] = path
            #expect(served.contains("GET \(path)"), "\(probe) GETs \(path), which the server does not serve (passgateRoutes)")
            #expect(documented.contains(path), "\(probe) GETs \(path), which openapi.yaml does not document")
            #expect(try Kubernetes.resolve(port: get.values["port"], in: container) == port, "\(probe) must probe server.port \(port)")
        }
        #expect(paths["readinessProbe"] == "/readyz")
        #expect(paths["livenessProbe"] == "/healthz")

        let annotations = try Kubernetes.object("Deployment", "passgate").map("spec").map("template").map("metadata").labels("annotations")
        #expect(annotations["prometheus.io/port"] == String(metricsPort), "Prometheus scrapes the metrics listener, not the API")
        #expect(passgateMetricsRoutes.contains("GET \(annotations["prometheus.io/path"] ?? "")"))
        #expect(!served.contains("GET /metrics"), "the API listener must not serve /metrics")
    }

    @Test("the Service sends traffic to server.port of the API pods and never exposes the admin port")
    func service() throws {
        let config = try Repository.configuration()
        let port = try config.map("server").int("port")
        let adminPort = try config.map("admin").int("port")
        let (_, container) = try Kubernetes.apiPod()
        let deployment = try Kubernetes.object("Deployment", "passgate")
        let podLabels = try deployment.map("spec").map("template").map("metadata").labels("labels")
        let spec = try Kubernetes.object("Service", "passgate").map("spec")
        #expect(try spec.labels("selector").allSatisfy { podLabels[$0.key] == $0.value }, "the Service selector must match the pods")
        let ports = try spec.maps("ports")
        #expect(!ports.isEmpty)
        for servicePort in ports {
            let target = try Kubernetes.resolve(port: servicePort.values["targetPort"] ?? servicePort.values["port"], in: container)
            #expect(target == port, "Service port \(servicePort.values["port"] ?? "?") targets \(target), not server.port \(port)")
            #expect(try servicePort.int("port") != adminPort && target != adminPort)
        }
        #expect(try container.maps("ports").allSatisfy { try $0.int("containerPort") != adminPort })
        #expect(try config.map("admin").string("host") == "127.0.0.1", "the admin listener must stay on loopback")
    }

    @Test("terminationGracePeriodSeconds outlasts drainSeconds + shutdownTimeoutSeconds")
    func gracePeriod() throws {
        let server = try Repository.configuration().map("server")
        let needed = try server.int("drainSeconds") + server.int("shutdownTimeoutSeconds")
        let (pod, container) = try Kubernetes.apiPod()
        let grace = try pod.int("terminationGracePeriodSeconds")
        #expect(grace > needed, "terminationGracePeriodSeconds \(grace) must exceed drainSeconds + shutdownTimeoutSeconds = \(needed)")
        // The drain itself keeps serving while endpoints update, so a preStop sleep would only eat the budget.
        #expect(!container.has("lifecycle") || grace > needed + 10)
    }

    @Test("every pod runs as non-root without privileges; the API's only writable path is the audit volume")
    func securityContext() throws {
        for name in ["passgate", "passgate-redis"] {
            let pod = try Kubernetes.object("Deployment", name).map("spec").map("template").map("spec")
            let podContext = try pod.map("securityContext")
            #expect(try podContext.bool("runAsNonRoot"), "\(name): runAsNonRoot")
            #expect(try podContext.int("runAsUser") != 0, "\(name): runAsUser")
            #expect(try podContext.map("seccompProfile").string("type") == "RuntimeDefault", "\(name): seccomp")
            #expect(try pod.bool("automountServiceAccountToken") == false, "\(name): no service account token")
            for container in try pod.maps("containers") {
                let context = try container.map("securityContext")
                #expect(try context.bool("readOnlyRootFilesystem"), "\(name): readOnlyRootFilesystem")
                #expect(try context.bool("allowPrivilegeEscalation") == false, "\(name): allowPrivilegeEscalation")
                #expect(try context.map("capabilities").strings("drop") == ["ALL"], "\(name): capabilities")
                let resources = try container.map("resources")
                #expect(resources.has("requests") && resources.has("limits"), "\(name): resource requests and limits")
            }
        }

        let config = try Repository.configuration()
        let auditDirectory = URL(fileURLWithPath: try config.map("audit").string("path")).deletingLastPathComponent().path
        let (pod, container) = try Kubernetes.apiPod()
        let volumes = Dictionary(try pod.maps("volumes").map { (try $0.string("name"), $0) }, uniquingKeysWith: { $1 })
        var writable: [String] = []
        for mount in try container.maps("volumeMounts") where (mount.values["readOnly"] as? Bool) != true {
            writable.append(try mount.string("mountPath"))
            let volume = try #require(volumes[try mount.string("name")])
            #expect(volume.has("emptyDir") || volume.has("persistentVolumeClaim"), "a writable mount must be a volume of the pod's own")
        }
        #expect(writable == [auditDirectory], "writable mounts \(writable): only the audit directory of audit.path should be")

        // Secret files are root-owned; the process (runAsUser) reads them through fsGroup's group bits.
        let podContext = try pod.map("securityContext")
        let secretMode = try #require(volumes["secrets"]).map("secret").int("defaultMode")
        #expect(podContext.has("fsGroup") && secretMode & 0o040 != 0,
                "secret files must be readable by the pod's fsGroup (defaultMode \(String(secretMode, radix: 8)))")
        #expect(secretMode & 0o007 == 0, "secret files must not be world-readable")
    }

    @Test("the autoscaler and the disruption budget govern the API pods and leave one running")
    func scaling() throws {
        let deployment = try Kubernetes.object("Deployment", "passgate").map("spec")
        #expect(!deployment.has("replicas"), "with an HPA, replicas in the Deployment is reset by every kubectl apply")
        let selector = try deployment.map("selector").labels("matchLabels")

        let hpa = try Kubernetes.object("HorizontalPodAutoscaler", "passgate").map("spec")
        let target = try hpa.map("scaleTargetRef")
        #expect(try target.string("kind") == "Deployment" && target.string("name") == "passgate")
        let minimum = try hpa.int("minReplicas")
        let maximum = try hpa.int("maxReplicas")
        #expect(minimum >= 2 && maximum >= minimum)

        let pdb = try Kubernetes.object("PodDisruptionBudget", "passgate").map("spec")
        #expect(try pdb.map("selector").labels("matchLabels") == selector)
        if pdb.has("maxUnavailable") {
            #expect(try pdb.int("maxUnavailable") < minimum)
        } else {
            #expect(try pdb.int("minAvailable") < minimum, "minAvailable must leave room for a drain")
        }
    }

    @Test("the shared state is the shipped Redis, reachable only from the API pods")
    func redis() throws {
        let state = try Repository.configuration().map("state")
        #expect(try state.string("backend") == "redis")
        let url = try state.string("redisURL")
        let service = try Kubernetes.object("Service", "passgate-redis")
        let port = try #require(try service.map("spec").maps("ports").first).int("port")
        let serviceName = try service.map("metadata").string("name")
        #expect(url.hasPrefix("redis://\(serviceName):\(port)/"), "state.redisURL \(url) must name the passgate-redis Service")
        #expect(try Repository.configuration().map("sandbox").bool("enabled") == false)

        let redisLabels = try Kubernetes.object("Deployment", "passgate-redis").map("spec").map("template").map("metadata").labels("labels")
        let apiLabels = try Kubernetes.object("Deployment", "passgate").map("spec").map("template").map("metadata").labels("labels")
        let policy = try Kubernetes.object("NetworkPolicy", "passgate-redis").map("spec")
        #expect(try policy.map("podSelector").labels("matchLabels") == redisLabels)
        let from = try #require(try policy.maps("ingress").first).maps("from")
        #expect(try from.map { try $0.map("podSelector").labels("matchLabels") } == [apiLabels])
    }

    /// Paths with a GET operation in openapi.yaml (which another suite proves matches the code).
    static func documentedGetPaths() throws -> Set<String> {
        let document = try YAMLMap(try Yams.load(yaml: Repository.text("openapi.yaml")), at: "openapi.yaml")
        let paths = try document.map("paths")
        return Set(paths.values.keys.filter { ((paths.values[$0] as? [String: Any])?["get"]) != nil })
    }
}
