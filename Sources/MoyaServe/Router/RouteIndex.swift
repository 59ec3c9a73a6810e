/// Which routes hold each pair of adjacent characters in their literal text: an index made
/// once, so that a 404 finds the routes most like its path by counting, and works out the
/// edit distance for a few of them only.
struct RouteIndex: Sendable {
    /// The routes whose edit distance a 404 works out.
    static let shortlist = 24

    /// Route indices by character pair.
    let postings: [UInt64: [Int32]]
    /// Each route's literal text length, a param counted as one character.
    let lengths: [Int]

    init(_ routes: [MockRoute]) {
        var postings: [UInt64: [Int32]] = [:]
        var lengths: [Int] = []
        for (index, route) in routes.enumerated() {
            var text: [Unicode.Scalar] = []
            for pattern in route.segments {
                text.append("/")
                text += MockRoute.text(of: pattern).unicodeScalars
            }
            lengths.append(min(text.count, 256))
            var seen: Set<UInt64> = []
            for pair in Self.pairs(Array(text.prefix(256))) where seen.insert(pair).inserted {
                postings[pair, default: []].append(Int32(truncatingIfNeeded: index))
            }
        }
        self.postings = postings
        self.lengths = lengths
    }

    /// The pairs of adjacent characters of `text`, each as one number.
    static func pairs(_ text: [Unicode.Scalar]) -> [UInt64] {
        guard text.count > 1 else { return [] }
        return (1..<text.count).map { UInt64(text[$0 - 1].value) << 32 | UInt64(text[$0].value) }
    }
}
