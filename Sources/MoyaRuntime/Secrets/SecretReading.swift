import MoyaHTTP
import MoyaSpec

/// One read of one source: the program it runs or the file it reads, and what its answer
/// means. Nothing here prints or keeps what a program said on stderr: it may hold anything.
struct SecretReading {
    let source: SecretSource
    let name: String
    let environment: Environment
    /// Where a dotenv file must be.
    let fileRoot: FileRoot

    /// The value, or why there is none: 66 (`missingSpec`, EX_NOINPUT) when the source has
    /// nothing, 69 (`unavailable`) when it failed.
    func value() throws(SecretFailure) -> String {
        switch source.kind {
        case .pass(let entry): return try pass(entry)
        case .keyring(let attributes): return try keyring(attributes)
        case .dotenv(let file, let key): return try dotenv(file, key: key)
        case .command(let argv): return try command(argv)
        }
    }

    private func nothing(_ reason: String) -> SecretFailure {
        SecretFailure(name: name, source: source, needer: nil, kind: .missing, reason: reason)
    }

    private func failed(_ reason: String) -> SecretFailure {
        SecretFailure(name: name, source: source, needer: nil, kind: .unavailable, reason: reason)
    }

    /// `pass show ENTRY`'s first line. An entry the store does not hold is told by its file,
    /// `ENTRY.gpg` in `$PASSWORD_STORE_DIR` (else `~/.password-store`), as pass keeps them.
    private func pass(_ entry: String) throws(SecretFailure) -> String {
        let store =
            environment["PASSWORD_STORE_DIR"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["HOME"].map { $0 + "/.password-store" }
        if let store, FileSystem.entry(store + "/" + entry + ".gpg").kind == .missing {
            throw nothing("the password store \(store) has no entry \(entry)")
        }
        let outcome = try run(["pass", "show", entry], what: "pass show")
        let first = outcome.output.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).first ?? []
        let line = String(decoding: first.last == UInt8(ascii: "\r") ? first.dropLast() : first, as: UTF8.self)
        guard !line.isEmpty else { throw nothing("the entry's first line is empty") }
        return line
    }

    /// `secret-tool lookup NAME VALUE…`: the item's secret. No item is exit status 1 with
    /// nothing said; anything else that fails is the keyring's failure.
    private func keyring(_ attributes: [SecretSource.Attribute]) throws(SecretFailure) -> String {
        let argv = ["secret-tool", "lookup"] + attributes.flatMap { [$0.name, $0.value] }
        let outcome = try run(argv, what: "secret-tool lookup", acceptingNothing: true)
        if outcome.status == 1, outcome.output.isEmpty, outcome.errors.isEmpty {
            throw nothing("the keyring has no item with these attributes")
        }
        if outcome.status != 0 {
            var failure = exited(outcome, "secret-tool lookup")
            if environment["DBUS_SESSION_BUS_ADDRESS"] == nil, environment["XDG_RUNTIME_DIR"] == nil {
                failure.reason += "; no session bus is known (DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR are unset)"
            }
            throw failure
        }
        var bytes = outcome.output[...]
        if bytes.last == UInt8(ascii: "\n") { bytes = bytes.dropLast() }
        guard !bytes.isEmpty else { throw nothing("the keyring's item is empty") }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The value of `key` in the dotenv file `file`, a path relative to the declaring file,
    /// inside its root.
    private func dotenv(_ file: String, key: String) throws(SecretFailure) -> String {
        let path = ServiceSpec.path(file, inSpec: source.file)
        let bytes: [UInt8]
        do {
            bytes = try fileRoot.read(path)
        } catch {
            if error.reason == .missing { throw nothing("there is no file \(path)") }
            throw failed(error.description)
        }
        guard let value = DotenvFile(bytes).value(of: key) else { throw nothing("\(path) does not set \(key)") }
        guard !value.isEmpty else { throw nothing("\(path) sets \(key) to nothing") }
        return value
    }

    /// What `argv` prints on stdout, whitespace trimmed from both ends. A program named by a
    /// relative path (`./bin/token`) is the one beside the declaring file.
    private func command(_ argv: [String]) throws(SecretFailure) -> String {
        var argv = argv
        if let program = argv.first, program.contains("/"), !program.hasPrefix("/") {
            argv[0] = ServiceSpec.path(
                program.hasPrefix("./") ? String(program.dropFirst(2)) : program, inSpec: source.file)
        }
        let outcome = try run(argv, what: source.kind.program)
        let text = String(decoding: outcome.output, as: UTF8.self)
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { throw nothing("\(source.kind.program) printed nothing") }
        return trimmed
    }

    /// Runs `argv` within the source's time limit; a status other than 0 is a failure unless
    /// `acceptingNothing`, which leaves it to the caller.
    private func run(_ argv: [String], what: String, acceptingNothing: Bool = false) throws(SecretFailure)
        -> ChildProcess.Outcome
    {
        let outcome: ChildProcess.Outcome
        do {
            outcome = try ChildProcess.run(
                argv, environment: environment.entries, path: environment["PATH"], timeout: source.timeout)
        } catch {
            throw failed(error.reason)
        }
        if outcome.timedOut {
            throw failed("\(what) did not finish in \(FixedPoint.format(source.timeout, places: 0)) s, and was stopped")
        }
        if outcome.status != 0, !acceptingNothing || outcome.status == nil { throw exited(outcome, what) }
        return outcome
    }

    private func exited(_ outcome: ChildProcess.Outcome, _ what: String) -> SecretFailure {
        if let signal = outcome.signal { return failed("\(what) was ended by signal \(signal)") }
        return failed("\(what) exited with status \(outcome.status ?? -1)")
    }
}

/// A dotenv file as Docker Compose, python-dotenv and direnv read one: `NAME=value` lines,
/// `export ` before a name allowed, `#` comments, a value in single quotes taken as written,
/// in double quotes with `\n`, `\t`, `\"` and `\\` escapes; an unquoted value ends at ` #`
/// and is trimmed. The last line setting a name wins.
struct DotenvFile {
    private var values: [String: String] = [:]

    init(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let raw = lines.popFirst() {
            var line = Substring(String(raw).trimmingWhitespace())
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            if line.hasPrefix("export ") { line = line.dropFirst("export ".count) }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let name = String(line[..<equals]).trimmingWhitespace()
            var rest = Substring(String(line[line.index(after: equals)...]).trimmingWhitespace())
            guard !name.isEmpty else { continue }
            if rest.hasPrefix("'") {
                rest = rest.dropFirst()
                // A quoted value may run over lines.
                while !rest.contains("'"), let next = lines.popFirst() { rest += "\n" + next }
                values[name] = String(rest[..<(rest.firstIndex(of: "'") ?? rest.endIndex)])
            } else if rest.hasPrefix("\"") {
                rest = rest.dropFirst()
                while Self.closingQuote(in: rest) == nil, let next = lines.popFirst() { rest += "\n" + next }
                values[name] = Self.unescaped(rest[..<(Self.closingQuote(in: rest) ?? rest.endIndex)])
            } else {
                if let comment = rest.firstRange(of: " #") { rest = rest[..<comment.lowerBound] }
                values[name] = String(rest).trimmingWhitespace()
            }
        }
    }

    func value(of name: String) -> String? { values[name] }

    /// The index of the first `"` no backslash escapes.
    private static func closingQuote(in text: Substring) -> Substring.Index? {
        var index = text.startIndex
        while index < text.endIndex {
            if text[index] == "\\" {
                index = text.index(after: index)
                if index < text.endIndex { index = text.index(after: index) }
                continue
            }
            if text[index] == "\"" { return index }
            index = text.index(after: index)
        }
        return nil
    }

    private static func unescaped(_ text: Substring) -> String {
        var result = ""
        var escaping = false
        for character in text {
            if escaping {
                switch character {
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "r": result.append("\r")
                default: result.append(character)
                }
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}

extension String {
    /// The text without spaces, tabs, carriage returns and newlines at either end.
    fileprivate func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}

extension SecretSource.Kind {
    /// The program a `command` names, as written.
    fileprivate var program: String {
        if case .command(let argv) = self { return argv.first ?? "" }
        return ""
    }
}
