/// Text a person reads as it is shown to a model: every character a person could not see in
/// it removed (control characters but a line break and a tab, zero-width characters, bidi
/// embeddings, overrides and isolates, Unicode tag characters, invisible fillers), so that an
/// imported description cannot carry instructions a reviewer of the spec would not see
/// (OWASP's MCP03, tool poisoning). What was removed is counted, for the tool to say so.
package struct VisibleText {
    /// The text, cleaned.
    package private(set) var text = ""
    /// How many characters were removed.
    package private(set) var removed = 0

    package init(_ original: String) {
        guard original.unicodeScalars.contains(where: Self.isHidden) else {
            text = original
            return
        }
        var scalars = String.UnicodeScalarView()
        for scalar in original.unicodeScalars {
            if Self.isHidden(scalar) { removed += 1 } else { scalars.append(scalar) }
        }
        text = String(scalars)
    }

    /// Whether a person could not see `scalar` where it stands.
    package static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: false
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0xAD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180E, 0x3164, 0xFFA0: true
        case 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2064, 0x2066...0x206F: true
        case 0xFEFF, 0xFFF9...0xFFFB: true
        case 0xE0000...0xE007F, 0xE0100...0xE01EF: true
        default: false
        }
    }

    /// The sentence a tool's description ends with when `count` characters were removed from
    /// its texts; empty when none were.
    package static func notice(_ count: Int) -> String {
        guard count > 0 else { return "" }
        return "\n\n(moya-cli removed \(count) invisible character\(count == 1 ? "" : "s") from this tool's "
            + "descriptions: control, zero-width, bidirectional or tag characters a person reading the spec "
            + "would not see.)"
    }
}
