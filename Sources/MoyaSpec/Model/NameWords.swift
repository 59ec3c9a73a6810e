/// How names are cut into words, for the names `generate swift` and `import openapi` make.
public enum NameWords {
    /// The words of a name: split at anything but ASCII letters and digits, and before
    /// capitals after lowercase, so that no other character reaches an identifier.
    public static func split(_ name: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previousLower = false
        for character in name {
            if !(character.isASCII && (character.isLetter || character.isNumber)) {
                if !current.isEmpty { words.append(current) }
                current = ""
                previousLower = false
                continue
            }
            if character.isUppercase, previousLower, !current.isEmpty {
                words.append(current)
                current = ""
            }
            current.append(character)
            previousLower = character.isLowercase || character.isNumber
        }
        if !current.isEmpty { words.append(current) }
        return words
    }
}
