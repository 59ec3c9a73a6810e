import MoyaSpec
import MoyaYAML

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The block layout of a spec file, read from its bytes without parsing YAML: the lines of
/// each top-level key, and under `targets:`, the lines of each target.
///
/// `call` needs one target; libyaml would spend most of a call's time on a large spec building
/// nodes for the others. The outline lets the compiler hand libyaml only the lines it needs:
/// the file without the other targets' lines and the flows'. Kept lines keep their columns,
/// and a `LineMap` takes each line of the shorter text back to its line in the file, so every
/// mark is where it is in the file.
///
/// It reads only the plain block layout specs are written in. Anything else (flow-style
/// `targets`, quoted or complex keys, documents, anchors that a kept line's alias may need)
/// gives no outline, and the whole file is compiled as before.
struct SpecOutline {
    /// A run of whole lines: `start..<end` in bytes, and the file's line (from 1) it begins on.
    struct Lines {
        var start: Int
        var end: Int
        var line: Int
    }

    /// A top-level key or a target: its name's bytes and its lines, the key's own included.
    struct Section {
        var name: Range<Int>
        var lines: Lines
    }

    /// The top-level keys in order.
    var sections: [Section] = []
    /// The targets in order.
    var targets: [Section] = []
    /// Where `targets:` is among the sections.
    var targetsSection: Int?

    /// The outline of `bytes`, or nil when the layout is not one this reads.
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let (sections, targets, targetsSection) = Self.scan(bytes) else { return nil }
        self.sections = sections
        self.targets = targets
        self.targetsSection = targetsSection
    }

    /// One pass over the lines, a `memchr` for each line's end.
    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> ([Section], [Section], Int)? {
        guard let base = bytes.baseAddress else { return nil }
        var sections: [Section] = []
        var targets: [Section] = []
        var targetsSection: Int?
        var targetIndent: Int?
        var inTargets = false
        var lineNumber = 0
        var start = 0
        while start < bytes.count {
            // Inside `targets:`, most lines are a target's content, indented deeper than the
            // targets themselves: they are skipped with a look at their first spaces only.
            if inTargets, let targetIndent, targetIndent > 0 {
                let (next, lines) = skipDeeper(bytes, from: start, than: targetIndent)
                start = next
                lineNumber += lines
                guard start < bytes.count else { break }
            }
            lineNumber += 1
            let end =
                memchr(base + start, 0x0A, bytes.count - start).map {
                    UnsafeRawPointer($0) - UnsafeRawPointer(base) + 1
                }
                ?? bytes.count
            defer { start = end }
            var first = start
            while first < end, bytes[first] == UInt8(ascii: " ") { first += 1 }
            let indent = first - start
            // Blank lines and comments belong to no one.
            guard first < end else { continue }
            switch bytes[first] {
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "#"): continue
            default: break
            }
            if indent == 0 {
                guard let (name, rest) = key(bytes, first, end) else { return nil }
                if let last = sections.indices.last { sections[last].lines.end = start }
                sections.append(Section(name: name, lines: Lines(start: start, end: bytes.count, line: lineNumber)))
                inTargets = bytes[name].elementsEqual("targets".utf8)
                if inTargets {
                    // Only a block mapping can be cut into targets.
                    guard targetsSection == nil, isEmptyValue(bytes, rest, end) else { return nil }
                    targetsSection = sections.count - 1
                    targetIndent = 0
                }
                continue
            }
            guard inTargets else { continue }
            if targetIndent == 0 { targetIndent = indent }
            guard let targetIndent else { return nil }
            if indent == targetIndent {
                guard let (name, _) = key(bytes, first, end) else { return nil }
                if let last = targets.indices.last { targets[last].lines.end = start }
                targets.append(Section(name: name, lines: Lines(start: start, end: end, line: lineNumber)))
            } else if indent < targetIndent {
                return nil
            }
        }
        guard let targetsSection else { return nil }
        // The last target ends where the targets section does; blank and comment lines after
        // it stay with it, which is harmless.
        if let last = targets.indices.last { targets[last].lines.end = sections[targetsSection].lines.end }
        return (sections, targets, targetsSection)
    }

    /// The text after a top-level `key:` on its own line, without a comment or the spaces
    /// around it (`immediate` for `stub: immediate  # offline`); nil when there is no such key.
    func inlineValue(of key: String, in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let section = sections.first(where: { bytes[$0.name].elementsEqual(key.utf8) }) else { return nil }
        // The key reader found a `:` right after the name.
        var value = bytes[(section.name.upperBound + 1)..<section.lines.end]
        if let end = value.firstIndex(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "#") }) {
            value = value[..<end]
        }
        let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
        while let first = value.first, blank(first) { value = value.dropFirst() }
        while let last = value.last, blank(last) { value = value.dropLast() }
        return String(decoding: value, as: UTF8.self)
    }

    /// Past every line from `start` on whose first `indent + 1` bytes are spaces: where the
    /// first other line starts, and how many lines were passed.
    ///
    /// Eight bytes at a time: the newlines of a word are found at once (each byte equal to
    /// `\n` has its high bit set, exactly, with no carry between bytes), and the line after
    /// each is checked with one more load. Most of a large spec is targets' content, which
    /// passes with no call and no look at its bytes one by one.
    private static func skipDeeper(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, than indent: Int) -> (Int, Int)
    {
        guard let base = bytes.baseAddress, start < bytes.count else { return (start, 0) }
        guard isDeeper(base, bytes.count, at: start, than: indent) else { return (start, 0) }
        let raw = UnsafeRawPointer(base)
        var lines = 0
        var index = start
        // A deeper line starts with `indent + 1` spaces; one word holds them up to eight.
        if indent < 8 {
            let width = indent + 1
            let kept: UInt64 = width == 8 ? ~0 : (1 << UInt64(8 * width)) - 1
            let spaces: UInt64 = 0x2020_2020_2020_2020 & kept
            let newlines: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
            let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
            // A line found in this word starts at most 8 bytes on, and its head is 8 more.
            while index + 16 <= bytes.count {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let zeroed = word ^ newlines
                var found = ~(((zeroed & low) &+ low) | zeroed | low)
                while found != 0 {
                    let next = index + (found.trailingZeroBitCount >> 3) + 1
                    found &= found &- 1
                    lines += 1
                    let head = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: next, as: UInt64.self))
                    if head & kept != spaces { return (next, lines) }
                }
                index += 8
            }
        }
        // The rest, a line at a time; the line `index` is in is a deeper one.
        while index < bytes.count {
            // The file's last line, with no newline after it.
            guard let found = memchr(base + index, 0x0A, bytes.count - index) else { return (bytes.count, lines + 1) }
            index = UnsafeRawPointer(found) - raw + 1
            lines += 1
            guard isDeeper(base, bytes.count, at: index, than: indent) else { return (index, lines) }
        }
        return (index, lines)
    }

    /// Whether the line at `start` begins with `indent + 1` spaces.
    @inline(__always)
    private static func isDeeper(_ base: UnsafePointer<UInt8>, _ count: Int, at start: Int, than indent: Int) -> Bool {
        guard start + indent < count else { return false }
        var offset = 0
        while offset <= indent, base[start + offset] == UInt8(ascii: " ") { offset += 1 }
        return offset > indent
    }

    /// Which line of the file each line of a shorter text is: the first line (from 1) of each
    /// run of kept lines, in the text and in the file.
    struct LineMap: Sendable {
        var runs: [(text: Int, file: Int)] = []

        /// The file's line for a line of the text.
        func fileLine(_ line: Int) -> Int {
            guard let run = runs.last(where: { $0.text <= line }) else { return line }
            return run.file + (line - run.text)
        }
    }

    /// The lines of `bytes` without those of every target not in `keep` and of `flows`, with
    /// the map back to the file's lines; nil when a kept line may need an anchor from a dropped
    /// one, or `keep` names a target twice.
    func keeping(_ keep: Set<String>, of bytes: UnsafeBufferPointer<UInt8>) -> (text: [UInt8], lines: LineMap)? {
        let wanted = keep.map { Array($0.utf8) }
        var kept: [Lines] = []
        var found = Array(repeating: 0, count: wanted.count)
        do {
            guard let base = bytes.baseAddress else { return nil }
            for target in targets {
                let name = target.name
                let index = wanted.firstIndex { wanted in
                    wanted.count == name.count
                        && wanted.withUnsafeBufferPointer { wanted in
                            wanted.baseAddress.map { memcmp($0, base + name.lowerBound, name.count) == 0 } ?? true
                        }
                }
                if let index {
                    found[index] += 1
                    kept.append(target.lines)
                }
            }
        }
        guard found.allSatisfy({ $0 <= 1 }) else { return nil }
        for (index, section) in sections.enumerated()
        where index != targetsSection && !bytes[section.name].elementsEqual("flows".utf8) {
            kept.append(section.lines)
        }
        if let targetsSection {
            // The `targets:` line itself, and anything between it and the first target.
            let section = sections[targetsSection].lines
            let firstTarget = targets.first?.lines.start ?? section.end
            kept.append(Lines(start: section.start, end: firstTarget, line: section.line))
        }
        kept.sort { $0.start < $1.start }

        // An alias kept may name an anchor dropped, anywhere between the kept runs: then the
        // whole file is needed.
        if Self.contains(UInt8(ascii: "&"), in: bytes[...]),
            kept.contains(where: { Self.contains(UInt8(ascii: "*"), in: bytes[$0.start..<$0.end]) }),
            zip(
                [Lines(start: 0, end: 0, line: 1)] + kept, kept + [Lines(start: bytes.count, end: bytes.count, line: 0)]
            )
            .contains(where: { before, after in
                before.end < after.start && Self.contains(UInt8(ascii: "&"), in: bytes[before.end..<after.start])
            })
        {
            return nil
        }
        var text: [UInt8] = []
        var map = LineMap()
        var textLine = 1
        for run in kept where run.end > run.start {
            let slice = bytes[run.start..<run.end]
            map.runs.append((textLine, run.line))
            text += slice
            // A run that ends without a newline is the file's last line.
            if slice.last != UInt8(ascii: "\n") { text.append(UInt8(ascii: "\n")) }
            textLine += Self.count(UInt8(ascii: "\n"), in: slice) + (slice.last == UInt8(ascii: "\n") ? 0 : 1)
        }
        return (text, map)
    }

    /// Whether `byte` is in `bytes`, found with `memchr`.
    private static func contains(_ byte: UInt8, in bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard let base = bytes.base.baseAddress, !bytes.isEmpty else { return false }
        return memchr(base + bytes.startIndex, Int32(byte), bytes.count) != nil
    }

    /// How many times `byte` is in `bytes`.
    private static func count(_ byte: UInt8, in bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Int {
        var total = 0
        for value in bytes where value == byte { total += 1 }
        return total
    }

    /// Whether a plain key may hold `byte`: an ASCII letter or digit, `_` or `-`.
    @inline(__always)
    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "-")
    }

    /// A plain key (`name:` followed by a space or the line's end) and where its value
    /// begins; nil for anything else: quoted or complex keys, sequences, documents, tags.
    private static func key(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> (Range<Int>, Int)? {
        var index = start
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: ":") {
                let after = index + 1
                if after == end || bytes[after] == UInt8(ascii: " ") || bytes[after] == UInt8(ascii: "\n")
                    || bytes[after] == UInt8(ascii: "\r")
                {
                    guard index > start else { return nil }
                    return (start..<index, after)
                }
            }
            guard isNameByte(byte) else { return nil }
            index += 1
        }
        return nil
    }

    /// Whether nothing but spaces and a comment follow a key.
    private static func isEmptyValue(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        var index = start
        while index < end, bytes[index] == UInt8(ascii: " ") { index += 1 }
        return index == end || bytes[index] == UInt8(ascii: "#") || bytes[index] == UInt8(ascii: "\n")
            || bytes[index] == UInt8(ascii: "\r")
    }
}

extension YAMLNode {
    /// The node with each mark's line taken back to the file's through `map`. The depth is the
    /// loader's, which it bounds.
    func remapped(_ map: SpecOutline.LineMap) -> YAMLNode {
        var node = self
        node.mark.line = map.fileLine(mark.line)
        switch content {
        case .scalar: break
        case .sequence(let items): node.content = .sequence(items.map { $0.remapped(map) })
        case .mapping(let pairs):
            node.content = .mapping(pairs.map { (key: $0.key.remapped(map), value: $0.value.remapped(map)) })
        }
        return node
    }
}
