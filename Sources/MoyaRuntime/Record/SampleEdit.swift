import MoyaSpec
import MoyaYAML

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
    static let responseKeys: Set<String> = ["status", "headers", "body", "json", "file", "events", "error"]

    /// `text` with the sample recorded in it.
    public func apply(_ recorded: RecordedSample, to text: String) throws(Diagnostic) -> String {
        let layout = try LayoutText(text, file: file, editor: "--record")
        let (range, replacement) = try change(recorded, in: layout)
        return layout.replacing(range, with: replacement)
    }

    /// The range of scalars to replace and what replaces it.
    private func change(_ recorded: RecordedSample, in layout: LayoutText) throws(Diagnostic) -> (Range<Int>, String) {
        let (root, newline) = (layout.root, layout.newline)
        let targets = try layout.blockMapping(root.value("targets"), at: root, "targets")
        guard let entry = targets.entry(target) else {
            throw layout.problem(targets.mark, "targets", "has no target '\(target)'")
        }
        let targetNode = try layout.blockMapping(entry.value, at: entry.key, "targets.\(target)")
        let keyColumn = layout.childColumn(of: targetNode, parent: entry.key)
        guard let sample else {
            return try place(recorded, key: "sample", in: targetNode, column: keyColumn, layout)
        }
        let named = entryLines(sample, recorded, column: keyColumn + 2)
        guard let samples = targetNode.entry("samples") else {
            // No `samples:` yet: the mapping and its one entry are added together.
            let lines = [LayoutText.indent(keyColumn) + "samples:"] + named
            return (layout.appendRange(after: targetNode), newline + lines.joined(separator: newline))
        }
        if samples.value.isNull {
            // `samples:` with nothing under it.
            let start = layout.valueStart(after: samples.key)
            return (
                start..<max(start, layout.trimmedEnd(samples.value)), newline + named.joined(separator: newline)
            )
        }
        let samplesNode = try layout.blockMapping(samples.value, at: samples.key, "targets.\(target).samples")
        let column = layout.childColumn(of: samplesNode, parent: samples.key)
        return try place(recorded, key: sample, in: samplesNode, column: column, layout)
    }

    /// `key:` at `column` over the recorded sample's lines.
    private func entryLines(_ key: String, _ recorded: RecordedSample, column: Int) -> [String] {
        [LayoutText.indent(column) + YAMLText.key(key) + ":"] + recorded.lines(indent: column + 2)
    }

    /// Replaces the value under `key` in `mapping`, or adds the key at the mapping's end.
    private func place(
        _ recorded: RecordedSample, key: String, in mapping: YAMLLayout.Node, column: Int, _ layout: LayoutText
    ) throws(Diagnostic) -> (Range<Int>, String) {
        let newline = layout.newline
        guard let existing = mapping.entry(key) else {
            let lines = entryLines(key, recorded, column: column)
            return (layout.appendRange(after: mapping), newline + lines.joined(separator: newline))
        }
        let value = existing.value
        if case .alias = value.kind {
            // The sample is another node's: this target gets its own.
        } else if value.isAnchored {
            throw layout.problem(
                value.mark, keyPath, "other nodes refer to this sample by its anchor; --record does not change it")
        }
        var column = existing.key.mark.column - 1 + 2
        var kept: [String] = []
        if case .mapping(let pairs) = value.kind {
            if !value.isFlow, let first = pairs.first { column = first.key.mark.column - 1 }
            for pair in pairs {
                guard case .scalar(let name) = pair.key.kind, !Self.responseKeys.contains(name) else { continue }
                let source = layout.text(pair.key.start..<layout.trimmedEnd(pair.value))
                guard value.isFlow == false || !source.contains("\n") else {
                    throw layout.problem(
                        pair.key.mark, keyPath + "." + name,
                        "--record keeps this key, and it spans lines inside { }; write the sample in block style")
                }
                kept.append(LayoutText.indent(column) + source)
            }
        }
        let lines = recorded.lines(indent: column) + kept
        let start = layout.valueStart(after: existing.key)
        // An empty value ends before a comment after its key, which stays.
        return (start..<max(start, layout.trimmedEnd(value)), newline + lines.joined(separator: newline))
    }
}
