/// Text for a terminal: what a spec, a document or a server wrote, made safe to print, and
/// words in colour.
public enum TerminalText {
    /// `text` with every control character (C0, DEL and C1) and every bidirectional control
    /// (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C) written as a visible escape,
    /// and the line and paragraph separators too, so that printed text cannot move the
    /// cursor, clear the screen, set the window title, start a new line or reorder what
    /// follows it.
    public static func escapingControls(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var output = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                switch scalar {
                case "\n": output += "\\n"
                case "\t": output += "\\t"
                case "\r": output += "\\r"
                default: output += "\\u{" + String(scalar.value, radix: 16) + "}"
                }
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    /// `text` in an ANSI `style`, reset after it, when `colored`; as it is otherwise.
    public static func painted(_ text: String, _ style: String, colored: Bool) -> String {
        colored ? style + text + "\u{1B}[0m" : text
    }

    /// Whether `scalar` is escaped by `escapingControls`.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F: true
        case 0x200E, 0x200F, 0x061C, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
