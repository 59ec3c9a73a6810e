import MoyaSpec
import MoyaYAML

/// A spec's text as its scalars, with where its nodes stand (`YAMLLayout`), for the edits
/// `--record` and `--save` make in place: the positions a value is replaced at or a key added
/// after, and the mappings they may edit. Only block style is edited: a mapping written in
/// flow style (`{ … }`), through an alias or under an anchor is refused with the place to change.
struct LayoutText {
    /// The text's scalars, a leading byte order mark left out.
    var scalars: [Unicode.Scalar]
    /// Whether the text began with a byte order mark, which is written back.
    let hasMark: Bool
    /// The line break the text uses.
    let newline: String
    /// The document's root.
    let root: YAMLLayout.Node
    /// The spec's file name, for diagnostics.
    let file: String
    /// The option that edits, named in what it refuses: `--record`, `--save`.
    let editor: String

    /// The layout of `text`; a problem at its first line when libyaml refuses it or it is empty.
    init(_ text: String, file: String, editor: String) throws(Diagnostic) {
        self.file = file
        self.editor = editor
        hasMark = text.unicodeScalars.first == "\u{FEFF}"
        scalars = Array(text.unicodeScalars.dropFirst(hasMark ? 1 : 0))
        newline = text.contains("\r\n") ? "\r\n" : "\n"
        guard let layout = YAMLLayout(Array(String(String.UnicodeScalarView(scalars)).utf8)), let root = layout.root
        else {
            throw Diagnostic(
                file: file, mark: Mark(line: 1, column: 1), keyPath: "targets",
                message: "the file is not YAML that can be edited")
        }
        self.root = root
    }

    /// The text with `range` replaced by `replacement`.
    func replacing(_ range: Range<Int>, with replacement: String) -> String {
        var edited = scalars
        edited.replaceSubrange(range, with: replacement.unicodeScalars)
        return (hasMark ? "\u{FEFF}" : "") + String(String.UnicodeScalarView(edited))
    }

    /// Where a new key goes: at the end of the last line of `mapping`'s content.
    func appendRange(after mapping: YAMLLayout.Node) -> Range<Int> {
        var index = trimmedEnd(mapping)
        // A comment on that line stays with it.
        while index < scalars.count, scalars[index] != "\n", scalars[index] != "\r" { index += 1 }
        return index..<index
    }

    /// Just past the colon after a key, and past a comment on the key's own line, which stays.
    func valueStart(after key: YAMLLayout.Node) -> Int {
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
    func trimmedEnd(_ node: YAMLLayout.Node) -> Int {
        var end = min(node.end, scalars.count)
        while end > node.start, [" ", "\t", "\n", "\r"].contains(scalars[end - 1]) { end -= 1 }
        return end
    }

    /// The column, from 0, of a block mapping's keys; for an empty one, two past its parent's.
    func childColumn(of mapping: YAMLLayout.Node, parent: YAMLLayout.Node) -> Int {
        if case .mapping(let pairs) = mapping.kind, let first = pairs.first { return first.key.mark.column - 1 }
        return parent.mark.column - 1 + 2
    }

    /// `node` when it is a mapping in block style, else the problem naming where to change.
    func blockMapping(_ node: YAMLLayout.Node?, at parent: YAMLLayout.Node, _ path: String)
        throws(Diagnostic) -> YAMLLayout.Node
    {
        guard let node else { throw problem(parent.mark, path, "is missing") }
        switch node.kind {
        case .alias:
            throw problem(node.mark, path, "is an alias of another node; \(editor) edits only what is written in place")
        case .mapping:
            if node.isFlow {
                throw problem(
                    node.mark, path, "is written in flow style, { … }; \(editor) edits block style: write it as a block"
                )
            }
            if node.isAnchored {
                throw problem(node.mark, path, "other nodes refer to it by its anchor; \(editor) does not change it")
            }
            return node
        default:
            throw problem(node.mark, path, "is not a mapping")
        }
    }

    /// The text of `range`.
    func text(_ range: Range<Int>) -> String {
        String(String.UnicodeScalarView(scalars[max(0, range.lowerBound)..<min(range.upperBound, scalars.count)]))
    }

    /// `count` spaces.
    static func indent(_ count: Int) -> String { String(repeating: " ", count: count) }

    func problem(_ mark: Mark, _ path: String, _ message: String) -> Diagnostic {
        Diagnostic(file: file, mark: mark, keyPath: path.isEmpty ? "targets" : path, message: message)
    }
}
