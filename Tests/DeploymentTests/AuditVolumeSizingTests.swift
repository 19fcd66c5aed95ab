import Foundation
import PassgateConfig
import PassgateTestSupport
import Testing

/// The audit emptyDir is sized from the retention in `passgate.yaml`: past its `sizeLimit` the
/// kubelet evicts the pod, mid-drain if need be, so the most the audit files can take must fit.
@Suite("Audit volume sizing")
struct AuditVolumeSizingTests {
    @Test("(maxFiles + 1) × maxFileBytes, plus a file held open while deleted and 10 %, fits the audit emptyDir's sizeLimit")
    func retentionFitsTheVolume() throws {
        let audit = try Self.shippedAuditSettings()
        let bound = try #require(
            audit.maxRetainedBytes, "audit.maxFiles is 0 in \(Repository.configurationFile): nothing bounds the audit files, so any volume fills")
        let volume = try Self.auditVolume()
        let sizeLimit = try KubernetesQuantity.bytes(try volume.map("emptyDir").values["sizeLimit"], at: "\(volume.path).emptyDir.sizeLimit")
        // A rotated file that `passgate usage` still reads when retention deletes it keeps its
        // blocks until closed (and a quota-based kubelet counts them); 10 % for everything else.
        let needed = bound + audit.maxFileBytes + sizeLimit / 10
        #expect(needed <= sizeLimit, """
            audit retention keeps up to \(Self.mebibytes(bound)) ((\(audit.maxFiles) + 1) × \(Self.mebibytes(audit.maxFileBytes))); \
            with the margin that needs \(Self.mebibytes(needed)), more than the audit emptyDir's sizeLimit \(Self.mebibytes(sizeLimit)): \
            lower audit.maxFiles or audit.maxFileBytes, or raise sizeLimit (and the ephemeral-storage request)
            """)
    }

    @Test("the pod requests the ephemeral storage its audit volume may fill, and no limit below it")
    func ephemeralStorage() throws {
        let volume = try Self.auditVolume()
        let sizeLimit = try KubernetesQuantity.bytes(try volume.map("emptyDir").values["sizeLimit"], at: "\(volume.path).emptyDir.sizeLimit")
        let (_, container) = try Kubernetes.apiPod()
        let resources = try container.map("resources")
        let request = try KubernetesQuantity.bytes(try resources.map("requests").values["ephemeral-storage"], at: "\(resources.path).requests.ephemeral-storage")
        #expect(request >= sizeLimit, "the scheduler must only place the pod where the audit volume fits")
        if let limit = try resources.map("limits").values["ephemeral-storage"] {
            // A container limit also counts its logs: one at sizeLimit would evict a pod whose audit files are within bounds.
            #expect(try KubernetesQuantity.bytes(limit, at: "\(resources.path).limits.ephemeral-storage") > sizeLimit)
        }
    }

    @Test("the emptyDir mounted at audit.path's directory is the volume these tests size")
    func auditVolumeIsMountedAtTheAuditDirectory() throws {
        let (pod, container) = try Kubernetes.apiPod()
        let mount = try #require(try container.maps("volumeMounts").first { (try? $0.string("mountPath")) == ShippedConfiguration.auditDirectory })
        let volumes = try pod.maps("volumes").filter { (try? $0.string("name")) == (try? mount.string("name")) }
        #expect(volumes.count == 1 && volumes.first?.has("emptyDir") == true)
        let path = try Repository.configuration().map("audit").string("path")
        #expect(URL(fileURLWithPath: path).deletingLastPathComponent().path == ShippedConfiguration.auditDirectory)
    }

    /// `passgate.yaml`'s `audit:` through the real loader, so absent keys take the real defaults.
    static func shippedAuditSettings() throws -> AuditSettings {
        let shipped = try ShippedConfiguration.materialize()
        defer { shipped.remove() }
        do {
            return try ConfigurationLoader.testing(environment: [:]).load(yaml: shipped.yaml, baseDirectory: shipped.directory).audit
        } catch {
            throw Failure("\(Repository.configurationFile) is rejected: \(error.problems.map(\.message).joined(separator: "; "))")
        }
    }

    /// The API pod's volume mounted at the audit directory.
    static func auditVolume() throws -> YAMLMap {
        let (pod, container) = try Kubernetes.apiPod()
        guard let mount = try container.maps("volumeMounts").first(where: { (try? $0.string("mountPath")) == ShippedConfiguration.auditDirectory }) else {
            throw Failure("deployment.yaml mounts nothing at \(ShippedConfiguration.auditDirectory)")
        }
        let name = try mount.string("name")
        guard let volume = try pod.maps("volumes").first(where: { (try? $0.string("name")) == name }) else {
            throw Failure("deployment.yaml has no volume named \(name)")
        }
        return volume
    }

    static func mebibytes(_ bytes: Int) -> String {
        String(format: "%.0f MiB", Double(bytes) / Double(1 << 20))
    }
}
