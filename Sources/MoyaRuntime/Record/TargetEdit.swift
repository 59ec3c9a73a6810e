import MoyaSpec
import MoyaYAML

/// Writes a target into a spec's text in place, as `call URL --save SERVICE.TARGET` does: the
/// target is added at the end of `targets:`, or replaces one of its name when asked to, and
/// every other byte of the file, its comments and its layout, stays as it was.
public struct TargetEdit: Sendable {
    /// The spec's file name, for diagnostics.
    public let file: String
    /// The target's name.
    public let target: String
    /// Whether a target of that name is replaced; otherwise it is refused.
    public let replaces: Bool

    public init(file: String, target: String, replaces: Bool) {
        self.file = file
        self.target = target
        self.replaces = replaces
    }

    /// A new spec holding only the target: `service` at `baseURL`, with the target's lines
    /// (`lines(indent)`) under `targets:`.
    public static func newSpec(service: String, baseURL: String, lines: [String]) -> String {
        (["service: " + YAMLText.scalar(service), "baseURL: " + YAMLText.quoted(baseURL), "targets:"] + lines)
            .joined(separator: "\n") + "\n"
    }

    /// The column, from 0, a target's key stands at under `targets:` in `text`.
    public func column(in text: String) throws(Diagnostic) -> Int {
        let layout = try LayoutText(text, file: file, editor: "--save")
        let (targets, parent) = try targetsMapping(layout)
        return targets.map { layout.childColumn(of: $0, parent: parent) } ?? parent.mark.column - 1 + 2
    }

    /// `text` with the target's `lines`, written at `column(in:)`, in it.
    public func apply(_ lines: [String], to text: String) throws(Diagnostic) -> String {
        let layout = try LayoutText(text, file: file, editor: "--save")
        let newline = layout.newline
        let written = newline + lines.joined(separator: newline)
        let (targets, parent) = try targetsMapping(layout)
        guard let targets else {
            // `targets:` with nothing under it.
            let start = layout.valueStart(after: parent)
            let end = layout.root.value("targets").map { max(start, layout.trimmedEnd($0)) } ?? start
            return layout.replacing(start..<end, with: written)
        }
        guard let existing = targets.entry(target) else {
            return layout.replacing(layout.appendRange(after: targets), with: written)
        }
        guard replaces else {
            throw layout.problem(
                existing.key.mark, "targets.\(target)", "the spec has this target already; --force replaces it")
        }
        if existing.value.isAnchored {
            throw layout.problem(
                existing.value.mark, "targets.\(target)",
                "other nodes refer to it by its anchor; --save does not replace it")
        }
        // From the key's own line, so that the lines written keep their indentation.
        var start = existing.key.start
        while start > 0, layout.scalars[start - 1] == " " { start -= 1 }
        return layout.replacing(
            start..<max(start, layout.trimmedEnd(existing.value)), with: lines.joined(separator: newline))
    }

    /// The `targets:` mapping, nil when it is empty, and the key it stands under.
    private func targetsMapping(_ layout: LayoutText) throws(Diagnostic) -> (YAMLLayout.Node?, YAMLLayout.Node) {
        guard let entry = layout.root.entry("targets") else {
            throw layout.problem(
                layout.root.mark, "targets", "is missing; add 'targets:' to save a target into the spec")
        }
        if entry.value.isNull { return (nil, entry.key) }
        return (try layout.blockMapping(entry.value, at: entry.key, "targets"), entry.key)
    }
}
