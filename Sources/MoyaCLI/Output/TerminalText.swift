/// Text for a terminal: what a spec or server wrote made safe to print, and words in colour.
enum TerminalText {
    /// `text` with every control character (C0, DEL and C1) written as a visible escape, so
    /// that a spec's summary or description cannot move the cursor, clear the screen or set
    /// the window title.
    static func escapingControls(_ text: String) -> String {
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
    static func painted(_ text: String, _ style: String, colored: Bool) -> String {
        colored ? style + text + "\u{1B}[0m" : text
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
