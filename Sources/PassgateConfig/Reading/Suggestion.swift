/// "did you mean …?" for misspelt keys and values.
enum Suggestion {
    /// `"; did you mean 'server'?"` when one of `candidates` is close to `word`, else `""`.
    /// Close means: equal ignoring case, a prefix of it (`warn` -> `warning`), or within a small
    /// edit distance that grows with the length (one edit up to 5 letters, two beyond, three beyond 8).
    static func didYouMean(_ word: String, among candidates: [String]) -> String {
        guard let best = closest(to: word, among: candidates) else { return "" }
        return best.lowercased() == word.lowercased() ? "; did you mean '\(best)'? (names are case-sensitive)" : "; did you mean '\(best)'?"
    }

    static func closest(to word: String, among candidates: [String]) -> String? {
        let lower = Array(word.lowercased())
        guard !lower.isEmpty else { return nil }
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let other = Array(candidate.lowercased())
            var distance = editDistance(lower, other)
            if lower.count >= 3, other.starts(with: lower) { distance = min(distance, 1) }
            let limit = other.count <= 5 ? 1 : other.count <= 8 ? 2 : 3
            guard distance <= limit, distance < (best?.distance ?? .max) else { continue }
            best = (candidate, distance)
        }
        return best?.candidate
    }

    /// Optimal-string-alignment distance: insertions, deletions, substitutions and adjacent
    /// transpositions (`prot` -> `port` is one edit).
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
                }
            }
        }
        return rows[a.count][b.count]
    }
}
