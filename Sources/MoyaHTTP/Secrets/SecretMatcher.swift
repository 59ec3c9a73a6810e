import Synchronization

/// Finds every occurrence of a set of byte strings (a secret's encoded forms) in one pass,
/// and masks them: an Aho–Corasick automaton, made a full transition table once.
///
/// Text is read twice in the same pass: as it is, and with JSON's escapes decoded (`\u00e4`,
/// a surrogate pair, `\"`, `\/`, `\n`, …), so that a secret a server echoes in any of the
/// spellings JSON allows is found, not only in the spellings an encoder would choose. What
/// matches in the decoded reading is masked over the escapes it was spelled with.
struct SecretMatcher: Sendable {
    /// Each byte's class: the bytes the patterns use each have one, every other byte shares
    /// class 0, so a state's row is as wide as the patterns' alphabet, not 256.
    private let classes: [UInt8]
    /// How many classes there are: the width of a row.
    private let width: Int
    /// The transitions, `width` per state.
    private let table: [Int32]
    /// For each state, the length of the longest pattern that ends there (0 for none).
    private let matchLength: [Int32]
    /// The longest pattern's length.
    private let longest: Int

    /// The automaton for `patterns`; nil when there are none, or none that is not empty.
    init?(_ patterns: [[UInt8]]) {
        let patterns = patterns.filter { !$0.isEmpty }
        guard !patterns.isEmpty else { return nil }
        var used = [Bool](repeating: false, count: 256)
        for pattern in patterns { for byte in pattern { used[Int(byte)] = true } }
        var classes = [UInt8](repeating: 0, count: 256)
        var width = 1
        if used.count(where: { $0 }) < 255 {
            for byte in 0..<256 where used[byte] {
                classes[byte] = UInt8(width)
                width += 1
            }
        } else {
            // Nearly every byte is used: each is its own class.
            for byte in 0..<256 { classes[byte] = UInt8(byte) }
            width = 256
        }
        // The trie, sparse while it is built.
        var children: [[UInt8: Int32]] = [[:]]
        var lengths: [Int32] = [0]
        for pattern in patterns {
            var state = 0
            for byte in pattern {
                if let next = children[state][byte] {
                    state = Int(next)
                } else {
                    children.append([:])
                    lengths.append(0)
                    children[state][byte] = Int32(children.count - 1)
                    state = children.count - 1
                }
            }
            lengths[state] = max(lengths[state], Int32(pattern.count))
        }
        // The trie's edges by class; a byte of class 0 is in no pattern.
        var edges: [[Int: Int32]] = children.map { row in
            Dictionary(uniqueKeysWithValues: row.map { (Int(classes[Int($0.key)]), $0.value) })
        }
        children = []
        // Breadth first: each state's failure link, and its full row of transitions.
        var table = [Int32](repeating: 0, count: edges.count * width)
        var fail = [Int32](repeating: 0, count: edges.count)
        var queue: [Int32] = []
        for (symbol, child) in edges[0] {
            table[symbol] = child
            queue.append(child)
        }
        var head = 0
        while head < queue.count {
            let state = Int(queue[head])
            head += 1
            let failure = Int(fail[state])
            lengths[state] = max(lengths[state], lengths[failure])
            for symbol in 0..<width {
                if let child = edges[state][symbol] {
                    fail[Int(child)] = table[failure * width + symbol]
                    table[state * width + symbol] = child
                    queue.append(child)
                } else {
                    table[state * width + symbol] = table[failure * width + symbol]
                }
            }
            edges[state] = [:]
        }
        self.classes = classes
        self.width = width
        self.table = table
        matchLength = lengths
        longest = patterns.map(\.count).max() ?? 0
    }

    /// `bytes` with every match, in either reading, replaced by `mask`; overlapping matches
    /// become one mask.
    func masking(_ bytes: [UInt8], with mask: [UInt8]) -> [UInt8] {
        let spans = matches(in: bytes)
        guard !spans.isEmpty else { return bytes }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var position = 0
        for span in spans {
            result.append(contentsOf: bytes[position..<span.lowerBound])
            result.append(contentsOf: mask)
            position = span.upperBound
        }
        result.append(contentsOf: bytes[position...])
        return result
    }

    /// The byte ranges of `bytes` that matches cover, sorted and merged.
    func matches(in bytes: [UInt8]) -> [Range<Int>] {
        var spans: [Range<Int>] = []
        // The raw reading.
        var state = 0
        for (index, byte) in bytes.enumerated() {
            state = Int(table[state &* width &+ Int(classes[Int(byte)])])
            let length = Int(matchLength[state])
            if length > 0 { spans.append((index + 1 - length)..<(index + 1)) }
        }
        // The decoded reading, only where there is an escape to decode.
        if bytes.contains(UInt8(ascii: "\\")) { decodedMatches(in: bytes, into: &spans) }
        return Self.merged(spans)
    }

    /// Matches in `bytes` read with JSON's escapes decoded. A ring of the last `longest`
    /// decoded bytes' source offsets takes each match back to the bytes it was spelled with.
    private func decodedMatches(in bytes: [UInt8], into spans: inout [Range<Int>]) {
        let ringSize = max(longest, 1)
        var starts = [Int](repeating: 0, count: ringSize)
        var decodedCount = 0
        var state = 0
        var index = 0
        var scalarBytes: [UInt8] = []
        scalarBytes.reserveCapacity(4)
        while index < bytes.count {
            let start = index
            scalarBytes.removeAll(keepingCapacity: true)
            if bytes[index] == UInt8(ascii: "\\"), let (decoded, end) = Self.escape(in: bytes, at: index) {
                scalarBytes.append(contentsOf: decoded)
                index = end
            } else {
                scalarBytes.append(bytes[index])
                index += 1
            }
            for byte in scalarBytes {
                starts[decodedCount % ringSize] = start
                decodedCount += 1
                state = Int(table[state &* width &+ Int(classes[Int(byte)])])
                let length = Int(matchLength[state])
                if length > 0 {
                    let first = starts[(decodedCount - length) % ringSize]
                    spans.append(first..<index)
                }
            }
        }
    }

    /// The UTF-8 bytes one JSON escape at `index` stands for, and where it ends; nil when the
    /// bytes there are not one.
    static func escape(in bytes: [UInt8], at index: Int) -> ([UInt8], Int)? {
        guard index + 1 < bytes.count else { return nil }
        switch bytes[index + 1] {
        case UInt8(ascii: "\""): return ([UInt8(ascii: "\"")], index + 2)
        case UInt8(ascii: "\\"): return ([UInt8(ascii: "\\")], index + 2)
        case UInt8(ascii: "/"): return ([UInt8(ascii: "/")], index + 2)
        case UInt8(ascii: "b"): return ([0x08], index + 2)
        case UInt8(ascii: "f"): return ([0x0C], index + 2)
        case UInt8(ascii: "n"): return ([0x0A], index + 2)
        case UInt8(ascii: "r"): return ([0x0D], index + 2)
        case UInt8(ascii: "t"): return ([0x09], index + 2)
        case UInt8(ascii: "u"):
            guard let unit = hex4(bytes, index + 2) else { return nil }
            var end = index + 6
            var value = unit
            if (0xD800...0xDBFF).contains(unit) {
                // A pair, as JSON spells a scalar past the Basic Multilingual Plane.
                guard end + 1 < bytes.count, bytes[end] == UInt8(ascii: "\\"), bytes[end + 1] == UInt8(ascii: "u"),
                    let low = hex4(bytes, end + 2), (0xDC00...0xDFFF).contains(low)
                else { return nil }
                value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                end += 6
            }
            guard let scalar = Unicode.Scalar(value) else { return nil }
            return (Array(String(Character(scalar)).utf8), end)
        default: return nil
        }
    }

    private static func hex4(_ bytes: [UInt8], _ index: Int) -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for byte in bytes[index..<(index + 4)] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// `spans` sorted, overlapping ones joined.
    static func merged(_ spans: [Range<Int>]) -> [Range<Int>] {
        guard spans.count > 1 else { return spans }
        var result: [Range<Int>] = []
        for span in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, span.lowerBound < last.upperBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, span.upperBound)
            } else {
                result.append(span)
            }
        }
        return result
    }
}

/// A redactor's matcher, built the first time it is needed and shared by the redactors of
/// one run that hold the same secrets: a check run or a flow prepares a redactor per request,
/// most of which never scrub anything, so even the secrets' encoded forms are worked out only
/// then.
final class SharedSecretMatcher: Sendable {
    private let secrets: [String]
    private let built = Mutex<SecretMatcher??>(nil)
    /// Matchers already built, by their secrets; a few, for the secrets of one run.
    private static let cache = Mutex<[[String]: SecretMatcher]>([:])

    init(secrets: [String]) {
        self.secrets = secrets
    }

    var isEmpty: Bool { secrets.isEmpty }

    /// The matcher, built once.
    var matcher: SecretMatcher? {
        if let done = built.withLock({ $0 }) { return done }
        let matcher =
            Self.cache.withLock { $0[secrets] }
            ?? SecretMatcher(secrets.flatMap(Redactor.encodedForms).map { Array($0.utf8) }).map { made in
                Self.cache.withLock { cache in
                    if cache.count >= 16 { cache.removeAll() }
                    cache[secrets] = made
                }
                return made
            }
        built.withLock { $0 = .some(matcher) }
        return matcher
    }
}
