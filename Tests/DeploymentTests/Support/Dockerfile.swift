import Foundation

/// `deploy/Dockerfile` split into stages and instructions, the way BuildKit reads it: comment
/// lines dropped (also inside continuations), `\` continuations joined, instructions case-insensitive.
struct Dockerfile {
    struct Instruction {
        let keyword: String
        let arguments: String
        let line: Int

        /// The exec (JSON array) form, e.g. `["passgate", "serve"]`; `nil` for the shell form.
        var execForm: [String]? { Dockerfile.execForm(arguments) }
    }

    struct Stage {
        let from: Instruction
        var instructions: [Instruction] = []

        /// `FROM image [AS name]`
        var image: String { from.arguments.split(separator: " ").first { !$0.hasPrefix("--") }.map(String.init) ?? "" }
        var name: String? {
            let words = from.arguments.split(separator: " ").map(String.init)
            guard let at = words.firstIndex(where: { $0.lowercased() == "as" }), at + 1 < words.count else { return nil }
            return words[at + 1]
        }

        func all(_ keyword: String) -> [Instruction] { instructions.filter { $0.keyword == keyword } }
        func last(_ keyword: String) -> Instruction? { all(keyword).last }
    }

    let stages: [Stage]

    static let path = "deploy/Dockerfile"

    static func shipped() throws -> Dockerfile { try Dockerfile(parsing: Repository.text(path)) }

    init(parsing text: String) throws {
        var stages: [Stage] = []
        var pending = "", pendingLine = 0
        for (offset, raw) in text.components(separatedBy: "\n").enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#") { continue }
            if pending.isEmpty {
                if line.isEmpty { continue }
                pendingLine = offset + 1
            }
            if line.hasSuffix("\\") {
                pending += line.dropLast() + " "
                continue
            }
            pending += line
            let keyword = String(pending.prefix { !$0.isWhitespace }).uppercased()
            let arguments = pending.drop { !$0.isWhitespace }.trimmingCharacters(in: .whitespaces)
            let instruction = Instruction(keyword: keyword, arguments: arguments, line: pendingLine)
            pending = ""
            if keyword == "FROM" {
                stages.append(Stage(from: instruction))
            } else if keyword == "ARG" && stages.isEmpty {
                continue  // global ARGs before the first FROM
            } else {
                guard !stages.isEmpty else { throw Failure("\(Self.path):\(instruction.line): \(keyword) before the first FROM") }
                stages[stages.count - 1].instructions.append(instruction)
            }
        }
        if !pending.isEmpty { throw Failure("\(Self.path) ends inside a line continuation") }
        self.stages = stages
    }

    static func execForm(_ text: String) -> [String]? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("["), let data = trimmed.data(using: .utf8) else { return nil }
        return try? JSONDecoder().decode([String].self, from: data)
    }

    /// The packages an `apt-get install` in `stage`'s RUN instructions installs (options skipped).
    static func aptPackages(in stage: Stage) -> [String] {
        var packages: [String] = []
        for run in stage.all("RUN") {
            let words = run.arguments.split(whereSeparator: { $0.isWhitespace }).map(String.init)
            for (index, word) in words.enumerated() where word == "apt-get" {
                var next = index + 1
                while next < words.count, words[next].hasPrefix("-") { next += 1 }  // apt-get -q install
                guard next < words.count, words[next] == "install" else { continue }
                for argument in words[(next + 1)...].prefix(while: { !["&&", "||", ";", "|"].contains($0) }) where !argument.hasPrefix("-") {
                    packages.append(argument)
                }
            }
        }
        return packages
    }
}
