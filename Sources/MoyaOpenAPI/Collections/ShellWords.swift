/// Shell text as a POSIX shell splits it into commands and words, for `import curl`: curl lines
/// as people paste them from a README, a ticket or a browser's "Copy as cURL". The text is
/// never run: quotes, escapes and `$'…'` are read, a `$NAME` is kept as a reference to the
/// variable, and anything that would run something (`$(…)`, backquotes) is kept as text and
/// reported.
struct ShellWords {
    /// A piece of a word: text, or the variable a `$NAME` / `${NAME}` names.
    enum Piece: Equatable {
        case text(String)
        case variable(String)
    }

    /// One word, with the line it starts on (from 1).
    struct Word: Equatable {
        var pieces: [Piece]
        var line: Int

        /// The word's text, a variable written back as `$NAME`.
        var text: String {
            pieces.map { piece in
                switch piece {
                case .text(let text): text
                case .variable(let name): "${\(name)}"
                }
            }.joined()
        }

        /// Whether the word is only text, no variable.
        var isLiteral: Bool { !pieces.contains { if case .variable = $0 { true } else { false } } }

        /// The word without its first `count` characters of text (an option's name, in `-XPOST`).
        func dropping(_ count: Int) -> Word {
            var rest = count
            var pieces: [Piece] = []
            for piece in self.pieces {
                guard rest > 0 else {
                    pieces.append(piece)
                    continue
                }
                if case .text(let text) = piece {
                    if text.count <= rest {
                        rest -= text.count
                    } else {
                        pieces.append(.text(String(text.dropFirst(rest))))
                        rest = 0
                    }
                } else {
                    pieces.append(piece)
                    rest = 0
                }
            }
            return Word(pieces: pieces, line: line)
        }
    }

    /// One command: its words, and the line it starts on.
    struct Command {
        var words: [Word]
        var line: Int
    }

    /// The commands of `text`, split at newlines, `;`, `&&`, `||`, `|` and `&`; a backslash
    /// before a newline continues the line. `problems` are what cannot be read as written
    /// (an unclosed quote, a command substitution), with their lines.
    static func commands(_ text: String) -> (commands: [Command], problems: [(line: Int, message: String)]) {
        var reader = Reader(Array(text.unicodeScalars))
        reader.read()
        return (reader.commands, reader.problems)
    }

    private struct Reader {
        let scalars: [Unicode.Scalar]
        var index = 0
        var line = 1
        var commands: [Command] = []
        var problems: [(line: Int, message: String)] = []
        var words: [Word] = []
        var commandLine = 1
        var pieces: [Piece] = []
        var text = ""
        var wordLine = 1
        /// Whether a word has begun (an empty `''` is a word).
        var inWord = false

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }
        func peek(_ offset: Int = 1) -> Unicode.Scalar? {
            index + offset < scalars.count ? scalars[index + offset] : nil
        }

        mutating func advance() {
            if scalars[index] == "\n" { line += 1 }
            index += 1
        }

        mutating func begin() {
            if !inWord {
                inWord = true
                wordLine = line
                if words.isEmpty { commandLine = line }
            }
        }

        mutating func flushText() {
            if !text.isEmpty {
                pieces.append(.text(text))
                text = ""
            }
        }

        mutating func endWord() {
            guard inWord else { return }
            flushText()
            words.append(Word(pieces: pieces, line: wordLine))
            pieces = []
            inWord = false
        }

        mutating func endCommand() {
            endWord()
            if !words.isEmpty { commands.append(Command(words: words, line: commandLine)) }
            words = []
        }

        mutating func read() {
            while let scalar = current {
                switch scalar {
                case " ", "\t", "\r":
                    endWord()
                    advance()
                case "\n", ";", "|", "&":
                    endCommand()
                    advance()
                case "#" where !inWord:
                    while let next = current, next != "\n" { advance() }
                case "\\":
                    advance()
                    guard let next = current else { break }
                    if next == "\n" {
                        advance()
                    } else if next == "\r", peek() == "\n" {
                        advance()
                        advance()
                    } else {
                        begin()
                        text.unicodeScalars.append(next)
                        advance()
                    }
                case "'":
                    begin()
                    let start = line
                    advance()
                    while let next = current, next != "'" {
                        text.unicodeScalars.append(next)
                        advance()
                    }
                    if current == nil { problems.append((start, "a single quote is not closed")) } else { advance() }
                case "\"":
                    begin()
                    doubleQuoted()
                case "$" where peek() == "'":
                    begin()
                    advance()
                    advance()
                    ansiQuoted()
                case "$":
                    begin()
                    dollar()
                case "`":
                    begin()
                    problems.append((line, "a command substitution (`…`) is not run; it is kept as text"))
                    text.unicodeScalars.append(scalar)
                    advance()
                default:
                    begin()
                    text.unicodeScalars.append(scalar)
                    advance()
                }
            }
            endCommand()
        }

        mutating func doubleQuoted() {
            let start = line
            advance()
            while let next = current, next != "\"" {
                if next == "\\", let escaped = peek(), "$`\"\\\n".unicodeScalars.contains(escaped) {
                    advance()
                    if escaped != "\n" { text.unicodeScalars.append(escaped) }
                    advance()
                } else if next == "$" {
                    dollar()
                } else {
                    if next == "`" {
                        problems.append((line, "a command substitution (`…`) is not run; it is kept as text"))
                    }
                    text.unicodeScalars.append(next)
                    advance()
                }
            }
            if current == nil { problems.append((start, "a double quote is not closed")) } else { advance() }
        }

        /// `$NAME`, `${NAME}`, or a `$` that is text.
        mutating func dollar() {
            advance()
            func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
                scalar == "_" || (scalar.isASCII && scalar.properties.isAlphabetic)
            }
            func isName(_ scalar: Unicode.Scalar) -> Bool {
                isNameStart(scalar) || ("0"..."9").contains(scalar)
            }
            if current == "{", let first = peek(), isNameStart(first) {
                var end = index + 1
                while end < scalars.count, isName(scalars[end]) { end += 1 }
                if end < scalars.count, scalars[end] == "}" {
                    flushText()
                    pieces.append(.variable(String(String.UnicodeScalarView(scalars[(index + 1)..<end]))))
                    index = end + 1
                    return
                }
            } else if let first = current, isNameStart(first) {
                var name = ""
                while let next = current, isName(next) {
                    name.unicodeScalars.append(next)
                    advance()
                }
                flushText()
                pieces.append(.variable(name))
                return
            } else if current == "(" {
                problems.append((line, "a command substitution ($(…)) is not run; it is kept as text"))
            }
            text += "$"
        }

        /// Bash's `$'…'`: backslash escapes as C writes them.
        mutating func ansiQuoted() {
            let start = line
            while let next = current, next != "'" {
                guard next == "\\", let escaped = peek() else {
                    text.unicodeScalars.append(next)
                    advance()
                    continue
                }
                advance()
                advance()
                switch escaped {
                case "n": text += "\n"
                case "t": text += "\t"
                case "r": text += "\r"
                case "a": text += "\u{07}"
                case "b": text += "\u{08}"
                case "e", "E": text += "\u{1B}"
                case "f": text += "\u{0C}"
                case "v": text += "\u{0B}"
                case "x": appendCode(radix: 16, digits: 2)
                case "u": appendCode(radix: 16, digits: 4)
                case "U": appendCode(radix: 16, digits: 8)
                case "0"..."7":
                    index -= 1
                    appendCode(radix: 8, digits: 3)
                default: text.unicodeScalars.append(escaped)
                }
            }
            if current == nil { problems.append((start, "a $'…' quote is not closed")) } else { advance() }
        }

        /// Up to `digits` digits in `radix` as one character.
        mutating func appendCode(radix: UInt32, digits: Int) {
            var value: UInt32 = 0
            var count = 0
            while count < digits, let next = current, let digit = Character(next).hexDigitValue,
                UInt32(digit) < radix
            {
                value = value * radix + UInt32(digit)
                count += 1
                advance()
            }
            if let scalar = Unicode.Scalar(value), count > 0 { text.unicodeScalars.append(scalar) }
        }
    }
}
