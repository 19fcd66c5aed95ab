import Foundation
import PassgateConfig
import PassgateTestSupport
import Testing

/// `ConfigurationFiles.refusing`: a document nobody vouches for (the configuration fuzzer's) makes
/// the loader read and write nothing; each file it names is reported as unreadable.
@Suite("Configuration files: the file system, or none")
struct ConfigurationFilesTests {
    @Test("with refusing files, file: secrets, caFile and sandbox: keys are reported by key and nothing is read or generated")
    func refusingReadsAndWritesNothing() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("passgate-refusing-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "0123456789ABCDEF0123456789ABCDEF\n".write(toFile: "\(directory)/secret", atomically: true, encoding: .utf8)
        try "-----BEGIN CERTIFICATE-----\n".write(toFile: "\(directory)/ca.pem", atomically: true, encoding: .utf8)
        let yaml = """
            providers: {cmcc: {baseURLs: ["https://www.cmpassport.com"], caFile: ca.pem}}
            apps:
              - {appId: "300011111111", signMode: md5, secret: "file:secret"}
              - {appId: "300022222222", signMode: rsa, privateKey: "sandbox:app-rsa"}
            sandbox: {enabled: true, keyDirectory: keys}
            """
        let system = ConfigurationLoader.testing(environment: [:])
        let refusing = ConfigurationLoader.testing(environment: [:], files: .refusing)
        let read = try system.load(yaml: yaml.replacingOccurrences(of: "  - {appId: \"300022222222\", signMode: rsa, privateKey: \"sandbox:app-rsa\"}\n", with: ""),
                                   baseDirectory: directory)
        #expect(read.providers["cmcc"]?.caFile == "\(directory)/ca.pem", "the system's files are read")
        do {
            _ = try refusing.load(yaml: yaml, baseDirectory: directory)
            Issue.record("a load that reads no files accepted file: and sandbox: references")
        } catch {
            let byPath = Dictionary(error.problems.map { ($0.path, $0.message) }, uniquingKeysWith: { $1 })
            #expect(Set(byPath.keys) == ["providers.cmcc.caFile", "apps[0].secret", "apps[1].privateKey"], "\(error.problems)")
            #expect(byPath["apps[0].secret"]?.contains("cannot read '\(directory)/secret'") == true, "\(byPath)")
            #expect(byPath["apps[1].privateKey"]?.contains("reads and writes no files") == true, "\(byPath)")
        }
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/keys"), "no sandbox key directory is created")
        #expect(ConfigurationFiles.refusing.isDirectory("/") == false && ConfigurationFiles.refusing.contents("/etc/hostname") == nil)
    }
}
