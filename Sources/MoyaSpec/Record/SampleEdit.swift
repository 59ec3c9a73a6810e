/// Writes a recorded sample into a spec's text in place: the target's `sample:`, or its
/// `samples.NAME`, is replaced or added, and every other byte of the file, its comments and
/// its layout, stays as it was.
///
/// A sample mapping's keys other than the response's own (`schema:`) are kept as written.
/// Only block style is edited: a target, or a `samples:` mapping, written in flow style
/// (`{ … }`) or through an alias is refused with the place to change.
public struct SampleEdit: Sendable {
    /// The spec's file name, for diagnostics.
    public let file: String
    /// The target.
    public let target: String
    /// The named sample, or nil for the default.
    public let sample: String?

    /// An edit of `target`'s default sample, or of the sample `sample`.
    public init(file: String, target: String, sample: String?) {
        self.file = file
        self.target = target
        self.sample = sample
    }

    /// The spec's key path to the sample.
    public var keyPath: String {
        "targets.\(target)." + (sample.map { "samples.\(YAMLText.key($0))" } ?? "sample")
    }

    /// The keys of a sample that a recording writes; any other is kept.
    static let responseKeys: Set<String> = ["status", "headers", "body", "json", "file", "error"]

    /// `text` with the sample recorded in it.
    public func apply(_ recorded: RecordedSample, to text: String) throws(Diagnostic) -> String {
        let hasMark = text.unicodeScalars.first == "\u{FEFF}"
        var scalars = Array(text.unicodeScalars.dropFirst(hasMark ? 1 : 0))
        guard let layout = YAMLLayout(Array(String(String.UnicodeScalarView(scalars)).utf8)), let root = layout.root
        else {
            throw problem(Mark(line: 1, column: 1), "", "the file is not YAML that can be edited")
        }
        let newline = text.contains("\r\n") ? "\r\n" : "\n"
        let (range, replacement) = try change(recorded, root: root, scalars: scalars, newline: newline)
        scalars.replaceSubrange(range, with: replacement.unicodeScalars)
        return (hasMark ? "\u{FEFF}" : "") + String(String.UnicodeScalarView(scalars))
    }

    /// The range of scalars to replace and what replaces it.
    private func change(
        _ recorded: RecordedSample, root: YAMLLayout.Node, scalars: [Unicode.Scalar], newline: String
    ) throws(Diagnostic) -> (Range<Int>, String) {
        let targets = try blockMapping(root.value("targets"), at: root, "targets")
        guard let entry = targets.entry(target) else {
            throw problem(targets.mark, "targets", "has no target '\(target)'")
        }
        let targetNode = try blockMapping(entry.value, at: entry.key, "targets.\(target)")
        let keyColumn = childColumn(of: targetNode, parent: entry.key)
        guard let sample else {
            return try place(recorded, key: "sample", in: targetNode, column: keyColumn, scalars, newline)
        }
        let named = entryLines(sample, recorded, column: keyColumn + 2)
        guard let samples = targetNode.entry("samples") else {
            // No `samples:` yet: the mapping and its one entry are added together.
            let lines = [indent(keyColumn) + "samples:"] + named
            return (appendRange(after: targetNode, scalars), newline + lines.joined(separator: newline))
        }
        if samples.value.isNull {
            // `samples:` with nothing under it.
            let start = valueStart(after: samples.key, scalars)
            return (start..<max(start, trimmedEnd(samples.value, scalars)), newline + named.joined(separator: newline))
        }
        let samplesNode = try blockMapping(samples.value, at: samples.key, "targets.\(target).samples")
        let column = childColumn(of: samplesNode, parent: samples.key)
        return try place(recorded, key: sample, in: samplesNode, column: column, scalars, newline)
    }

    /// `key:` at `column` over the recorded sample's lines.
    private func entryLines(_ key: String, _ recorded: RecordedSample, column: Int) -> [String] {
        [indent(column) + YAMLText.key(key) + ":"] + recorded.lines(indent: column + 2)
    }

    /// Replaces the value under `key` in `mapping`, or adds the key at the mapping's end.
    private func place(
        _ recorded: RecordedSample, key: String, in mapping: YAMLLayout.Node, column: Int, _ scalars: [Unicode.Scalar],
        _ newline: String
    ) throws(Diagnostic) -> (Range<Int>, String) {
        guard let existing = mapping.entry(key) else {
            let lines = entryLines(key, recorded, column: column)
            return (appendRange(after: mapping, scalars), newline + lines.joined(separator: newline))
        }
        let value = existing.value
        if case .alias = value.kind {
            // The sample is another node's: this target gets its own.
        } else if value.isAnchored {
            throw problem(
                value.mark, keyPath, "other nodes refer to this sample by its anchor; --record does not change it")
        }
        var column = existing.key.mark.column - 1 + 2
        var kept: [String] = []
        if case .mapping(let pairs) = value.kind {
            if !value.isFlow, let first = pairs.first { column = first.key.mark.column - 1 }
            for pair in pairs {
                guard case .scalar(let name) = pair.key.kind, !Self.responseKeys.contains(name) else { continue }
                let source = text(scalars, pair.key.start..<trimmedEnd(pair.value, scalars))
                guard value.isFlow == false || !source.contains("\n") else {
                    throw problem(
                        pair.key.mark, keyPath + "." + name,
                        "--record keeps this key, and it spans lines inside { }; write the sample in block style")
                }
                kept.append(indent(column) + source)
            }
        }
        let lines = recorded.lines(indent: column) + kept
        let start = valueStart(after: existing.key, scalars)
        // An empty value ends before a comment after its key, which stays.
        return (start..<max(start, trimmedEnd(value, scalars)), newline + lines.joined(separator: newline))
    }

    /// Where a new key goes: at the end of the last line of `mapping`'s content.
    private func appendRange(after mapping: YAMLLayout.Node, _ scalars: [Unicode.Scalar]) -> Range<Int> {
        var index = trimmedEnd(mapping, scalars)
        // A comment on that line stays with it.
        while index < scalars.count, scalars[index] != "\n", scalars[index] != "\r" { index += 1 }
        return index..<index
    }

    /// Just past the colon after a key, and past a comment on the key's own line, which stays.
    private func valueStart(after key: YAMLLayout.Node, _ scalars: [Unicode.Scalar]) -> Int {
        var index = key.end
        while index < scalars.count, scalars[index] != ":" { index += 1 }
        index = min(index + 1, scalars.count)
        var probe = index
        while probe < scalars.count, scalars[probe] == " " || scalars[probe] == "\t" { probe += 1 }
        if probe < scalars.count, scalars[probe] == "#" {
            while probe < scalars.count, scalars[probe] != "\n", scalars[probe] != "\r" { probe += 1 }
            return probe
        }
        return index
    }

    /// A node's end with the line breaks and spaces a block scalar takes after it left out.
    private func trimmedEnd(_ node: YAMLLayout.Node, _ scalars: [Unicode.Scalar]) -> Int {
        var end = min(node.end, scalars.count)
        while end > node.start, [" ", "\t", "\n", "\r"].contains(scalars[end - 1]) { end -= 1 }
        return end
    }

    /// The column, from 0, of a block mapping's keys; for an empty one, two past its parent's.
    private func childColumn(of mapping: YAMLLayout.Node, parent: YAMLLayout.Node) -> Int {
        if case .mapping(let pairs) = mapping.kind, let first = pairs.first { return first.key.mark.column - 1 }
        return parent.mark.column - 1 + 2
    }

    /// `node` when it is a mapping in block style, else the problem naming where to change.
    private func blockMapping(_ node: YAMLLayout.Node?, at parent: YAMLLayout.Node, _ path: String)
        throws(Diagnostic) -> YAMLLayout.Node
    {
        guard let node else { throw problem(parent.mark, path, "is missing") }
        switch node.kind {
        case .alias:
            throw problem(node.mark, path, "is an alias of another node; --record edits only what is written in place")
        case .mapping:
            if node.isFlow {
                throw problem(
                    node.mark, path, "is written in flow style, { … }; --record edits block style: write it as a block")
            }
            if node.isAnchored {
                throw problem(node.mark, path, "other nodes refer to it by its anchor; --record does not change it")
            }
            return node
        default:
            throw problem(node.mark, path, "is not a mapping")
        }
    }

    private func text(_ scalars: [Unicode.Scalar], _ range: Range<Int>) -> String {
        String(String.UnicodeScalarView(scalars[max(0, range.lowerBound)..<min(range.upperBound, scalars.count)]))
    }

    private func indent(_ count: Int) -> String { String(repeating: " ", count: count) }

    private func problem(_ mark: Mark, _ path: String, _ message: String) -> Diagnostic {
        Diagnostic(file: file, mark: mark, keyPath: path.isEmpty ? "targets" : path, message: message)
    }
}
