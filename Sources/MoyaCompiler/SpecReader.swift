import MoyaHTTP
import MoyaSpec
import MoyaYAML

/// Reads typed values out of YAML nodes, interpolating the environment and collecting every
/// problem as a diagnostic instead of stopping at the first.
struct SpecReader {
    /// A mapping's entries in order, with where each key was written. Spec mappings are
    /// small, so a linear search beats hashing every key.
    struct Fields: Sequence {
        struct Entry {
            var key: String
            var mark: Mark
            var value: YAMLNode
        }

        var entries: [Entry] = []
        var mark: Mark

        func makeIterator() -> IndexingIterator<[Entry]> { entries.makeIterator() }

        subscript(key: String) -> YAMLNode? {
            entries.first { $0.key == key }?.value
        }

        var count: Int { entries.count }
        var first: Entry? { entries.first }
    }

    let file: String
    let environment: Environment
    /// Whether samples are checked against their schemas (`SpecCompiler.sampleBodies`).
    var checksSamples = false
    /// Why no set variable may be read, when none may (`SpecCompiler.refusesEnvironment`).
    var refusesEnvironment: EnvironmentRefusal?
    var diagnostics: [Diagnostic] = []
    /// Likely mistakes that do not stop the spec from compiling.
    var warnings: [Diagnostic] = []
    /// The `${VAR}`s the environment does not set, with no default: the spec compiles, and a
    /// call that needs one stops.
    var unsetVariables: [UnsetVariable] = []
    /// The environment's values the spec read, each a secret.
    var environmentSecrets = SecretSet.none
    /// Typed param defaults an unset variable left unreadable, with the variables: an error
    /// unless a secret store gives one of them, whose value is typed as it is bound.
    var unboundDefaults: [(problem: Diagnostic, variables: [String])] = []
    /// Whether the text being read keeps its `${VAR}`s apart, so that a value bound after
    /// compiling (a secret store's, `ServiceSpec.binding(_:)`) reaches it: a template, a base
    /// URL or a scalar param default. Other text has its values written in.
    var keepsReferencesApart = false

    init(file: String, environment: Environment) {
        self.file = file
        self.environment = environment
    }

    mutating func error(_ mark: Mark, _ path: String, _ message: String) {
        diagnostics.append(Diagnostic(file: file, mark: mark, keyPath: path, message: message))
    }

    mutating func warning(_ mark: Mark, _ path: String, _ message: String) {
        warnings.append(Diagnostic(file: file, mark: mark, keyPath: path, message: message, severity: .warning))
    }

    static func join(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : path + "." + key
    }

    /// The keys of a mapping, reporting non-mappings, duplicate keys and keys not in `known`.
    /// An unknown key that is in `nearby`, the keys of the levels above and below, is most
    /// likely indented wrongly, and the message says so.
    mutating func fields(
        _ node: YAMLNode, _ path: @autoclosure () -> String, known: [String]?, nearby: [String] = []
    ) -> Fields? {
        guard case .mapping(let pairs) = node.content else {
            error(node.mark, path(), "expected a mapping, got \(node.kindDescription)")
            return nil
        }
        var fields = Fields(mark: node.mark)
        fields.entries.reserveCapacity(pairs.count)
        for pair in pairs {
            guard let key = pair.key.scalar else {
                error(pair.key.mark, path(), "keys must be scalars, got \(pair.key.kindDescription)")
                continue
            }
            if let known, !known.contains(key) {
                let hint =
                    nearby.contains(key)
                    ? " at this level; is it indented correctly?" : Suggestion.hint(for: key, in: known)
                error(pair.key.mark, Self.join(path(), key), "unknown key '\(key)'" + hint)
                continue
            }
            if fields[key] != nil {
                error(pair.key.mark, Self.join(path(), key), "duplicate key '\(key)'")
                continue
            }
            fields.entries.append(Fields.Entry(key: key, mark: pair.key.mark, value: pair.value))
        }
        return fields
    }

    /// The entries of a mapping of names to definitions, such as targets or flows, in order.
    /// Each name must be a scalar, unique and a valid name (`what` says what it names in the
    /// errors); an entry whose name is not a scalar, or repeats one, is left out.
    mutating func namedEntries(_ node: YAMLNode, _ path: String, what: String)
        -> [(name: String, path: String, mark: Mark, value: YAMLNode)]
    {
        guard case .mapping(let pairs) = node.content else {
            if !node.isNull {
                error(node.mark, path, "expected a mapping of \(what) names to \(what)s, got \(node.kindDescription)")
            }
            return []
        }
        var entries: [(name: String, path: String, mark: Mark, value: YAMLNode)] = []
        var seen: Set<String> = []
        for pair in pairs {
            guard let name = pair.key.scalar else {
                error(pair.key.mark, path, "\(what) names must be scalars")
                continue
            }
            let entryPath = path + "." + name
            guard seen.insert(name).inserted else {
                error(pair.key.mark, entryPath, "duplicate \(what) '\(name)'")
                continue
            }
            if !ParamSpec.isValidName(name) {
                error(
                    pair.key.mark, entryPath,
                    "\"\(name)\" is not a valid \(what) name; use letters, digits, '_' and '-', starting with a letter")
            }
            entries.append((name, entryPath, pair.key.mark, pair.value))
        }
        return entries
    }

    /// A scalar's text with `${VAR}` interpolated.
    mutating func string(_ node: YAMLNode, _ path: @autoclosure () -> String) -> String? {
        guard case .scalar(let text, _) = node.content, !node.isNull else {
            error(node.mark, path(), "expected a string, got \(node.kindDescription)")
            return nil
        }
        return interpolate(text, node.mark, path())
    }

    /// Prose, a summary or a description: printed as the spec wrote it, so `${VAR}` shows as
    /// the reference and never reads the environment, whose value may be a secret; `$${` is
    /// one literal `${`, as everywhere.
    mutating func prose(_ node: YAMLNode, _ path: @autoclosure () -> String) -> String? {
        guard case .scalar(let text, _) = node.content, !node.isNull else {
            error(node.mark, path(), "expected a string, got \(node.kindDescription)")
            return nil
        }
        guard Self.mayInterpolate(text) else { return text }
        var written = ""
        var rest = Substring(text)
        while let start = rest.firstRange(of: "${") {
            if start.lowerBound > rest.startIndex, rest[rest.index(before: start.lowerBound)] == "$" {
                written += rest[..<rest.index(before: start.lowerBound)] + "${"
            } else {
                written += rest[..<start.upperBound]
            }
            rest = rest[start.upperBound...]
        }
        return written + rest
    }

    /// The name in a `{name}` written without quotes, which YAML reads as a mapping in braces
    /// with one key and no value; nil for any other node.
    static func unquotedReference(_ node: YAMLNode) -> String? {
        guard node.isFlowMapping, case .mapping(let pairs) = node.content, pairs.count == 1, pairs[0].value.isNull,
            case .scalar(let name, .plain) = pairs[0].key.content, !name.isEmpty,
            name.utf8.enumerated().allSatisfy({ ParamSpec.isNameByte($1, first: $0 == 0) })
        else { return nil }
        return name
    }

    /// Reports an unquoted `{name}` (see `unquotedReference`) that stands where a `what`, a
    /// param or a flow variable, is meant.
    mutating func unquotedReferenceError(_ node: YAMLNode, _ name: String, _ path: String, what: String = "param") {
        error(node.mark, path, "this is a YAML mapping; write \"{\(name)}\" with quotes to use the \(what)")
    }

    /// A scalar as a template: `{param}` references parsed in the spec's text, `${VAR}` values
    /// kept as environment segments. With `references: false` braces are plain text.
    mutating func template(_ node: YAMLNode, _ path: @autoclosure () -> String, references: Bool = true) -> Template? {
        if references, let name = Self.unquotedReference(node) {
            unquotedReferenceError(node, name, path())
            return nil
        }
        guard case .scalar(let text, let style) = node.content, !node.isNull else {
            error(node.mark, path(), "expected a string, got \(node.kindDescription)")
            return nil
        }
        let keeps = keepsReferencesApart
        keepsReferencesApart = true
        defer { keepsReferencesApart = keeps }
        return pieces(text, node.mark, path()).map {
            var template = Template(pieces: $0, mark: node.mark, references: references)
            template.keepsText = style == .tagged
            return template
        }
    }

    /// A scalar's text with `${VAR}` interpolated, as `string` reads it, and, when it reads the
    /// environment, the template of its text and `${VAR}` values (braces plain) it was read
    /// as: what a value bound after compiling is written into (`ServiceSpec.binding(_:)`), and
    /// what generated code reads.
    mutating func sourcedString(_ node: YAMLNode, _ path: @autoclosure () -> String)
        -> (text: String, source: Template?)?
    {
        guard let template = template(node, path(), references: false) else { return nil }
        let readsEnvironment =
            if case .scalar(let text, _) = node.content { Self.readsEnvironment(text) } else { false }
        return (template.text(binding: [:]), readsEnvironment ? template : nil)
    }

    /// A scalar as the spec wrote it, for an error message: an interpolated value is shown as
    /// its `${VAR}` reference, never as the value, which may be a secret.
    func written(_ node: YAMLNode, _ interpolated: String) -> String {
        guard case .scalar(let text, _) = node.content, Self.mayInterpolate(text) else { return interpolated }
        return text
    }

    mutating func integer(_ node: YAMLNode, _ path: @autoclosure () -> String) -> Int? {
        if case .scalar(let text, .plain) = node.content, let value = YAMLScalar.parseInteger(text) { return value }
        error(node.mark, path(), "expected an integer, got \(describe(node))")
        return nil
    }

    mutating func number(_ node: YAMLNode, _ path: @autoclosure () -> String) -> Double? {
        if case .scalar(let text, .plain) = node.content {
            if let value = YAMLScalar.parseInteger(text) { return Double(value) }
            if let value = YAMLScalar.parseFloat(text) { return value }
        }
        error(node.mark, path(), "expected a number, got \(describe(node))")
        return nil
    }

    mutating func bool(_ node: YAMLNode, _ path: @autoclosure () -> String) -> Bool? {
        if case .scalar(let text, .plain) = node.content, let value = YAMLScalar.parseBool(text) { return value }
        error(node.mark, path(), "expected true or false, got \(describe(node))")
        return nil
    }

    /// A retry count, 0 to 100.
    mutating func retryCount(_ node: YAMLNode, _ path: @autoclosure () -> String) -> Int? {
        guard let value = integer(node, path()) else { return nil }
        guard (0...100).contains(value) else {
            error(node.mark, path(), "expected a retry count from 0 to 100, got \(value)")
            return nil
        }
        return value
    }

    /// A positive number of seconds.
    mutating func seconds(_ node: YAMLNode, _ path: @autoclosure () -> String) -> Double? {
        guard let value = number(node, path()) else { return nil }
        guard Seconds.isValidTimeout(value) else {
            error(
                node.mark, path(),
                "expected a number of seconds above 0 and at most \(Int(Seconds.maximum)) (a week), got \(JSONValue.format(value))"
            )
            return nil
        }
        return value
    }

    /// One of a fixed set of words.
    mutating func choice(_ node: YAMLNode, _ path: @autoclosure () -> String, _ choices: [String], what: String)
        -> String?
    {
        guard let text = string(node, path()) else { return nil }
        guard choices.contains(text) else {
            let list = choices.joined(separator: " | ")
            let shown = written(node, text)
            error(
                node.mark, path(),
                "unknown \(what) \"\(shown)\"; expected \(list)"
                    + (shown == text ? Suggestion.hint(for: text, in: choices) : ""))
            return nil
        }
        return text
    }

    func describe(_ node: YAMLNode) -> String {
        switch node.content {
        case .scalar(let text, _): node.isNull ? "null" : "\"\(text)\""
        default: node.kindDescription
        }
    }

    // MARK: - Environment

    /// Replaces `${VAR}` and `${VAR:-default}` with the environment's values.
    mutating func interpolate(_ text: String, _ mark: Mark, _ path: @autoclosure () -> String) -> String? {
        guard Self.mayInterpolate(text) else { return text }
        return pieces(text, mark, path())?.map { piece in
            switch piece {
            case .text(let text): text
            case .environment(_, let value), .environmentDefault(_, let value): value
            }
        }.joined()
    }

    /// A scalar split into spec text and environment values, each value kept apart so that
    /// whatever prints it knows where it came from.
    mutating func pieces(_ text: String, _ mark: Mark, _ path: @autoclosure () -> String) -> [EnvironmentPiece]? {
        guard Self.mayInterpolate(text) else { return [.text(text)] }
        var pieces: [EnvironmentPiece] = []
        var rest = Substring(text)
        var failed = false
        func append(_ text: Substring) {
            guard !text.isEmpty else { return }
            if case .text(let previous)? = pieces.last {
                pieces[pieces.count - 1] = .text(previous + text)
            } else {
                pieces.append(.text(String(text)))
            }
        }
        while let start = rest.firstRange(of: "${") {
            // `$${` is a literal `${`: text that must never read the environment, such as
            // what `import openapi` copies from a document.
            if start.lowerBound > rest.startIndex, rest[rest.index(before: start.lowerBound)] == "$" {
                append(rest[..<rest.index(before: start.lowerBound)])
                append("${")
                rest = rest[start.upperBound...]
                continue
            }
            append(rest[..<start.lowerBound])
            let body = rest[start.upperBound...]
            guard let close = body.firstIndex(of: "}") else {
                error(mark, path(), "unclosed '${' in \"\(text)\"; write ${NAME} or ${NAME:-default}")
                return nil
            }
            let inner = body[..<close]
            let name: Substring
            var fallback: Substring?
            if let separator = inner.firstRange(of: ":-") {
                name = inner[..<separator.lowerBound]
                fallback = inner[separator.upperBound...]
            } else {
                name = inner
            }
            if !Self.isEnvironmentName(name) {
                error(
                    mark, path(),
                    "\"${\(inner)}\" is not a valid environment reference; write ${NAME} or ${NAME:-default}")
                failed = true
            } else if environment[String(name)] != nil, let refusal = refusesEnvironment?.reason {
                var refused = Diagnostic(file: file, mark: mark, keyPath: path(), message: "${\(name)}: \(refusal)")
                refused.untrustedReason = refusal
                diagnostics.append(refused)
                failed = true
            } else if let value = environment[String(name)] {
                environmentSecrets.add([value])
                pieces.append(.environment(name: String(name), value: value))
            } else if let fallback, fallback.isEmpty {
                // `${TOKEN:-}` unset: an empty value that stays the environment's, so that a
                // credential made of it alone is left out rather than sent empty.
                pieces.append(.environment(name: String(name), value: ""))
            } else if let fallback {
                // The default is spec text; kept apart, it still names its variable for
                // generated code and exports, which read the variable instead.
                if BraceText.hasBrace(fallback) {
                    append(fallback)
                } else {
                    pieces.append(.environmentDefault(name: String(name), value: String(fallback)))
                }
            } else {
                // Unset with no default: an empty value, and a call that needs it stops.
                unsetVariables.append(
                    UnsetVariable(
                        name: String(name),
                        place: Diagnostic(
                            file: file, mark: mark, keyPath: path(),
                            message: "environment variable \(name) is not set", severity: .warning),
                        isBindable: keepsReferencesApart))
                pieces.append(.environment(name: String(name), value: ""))
            }
            rest = body[body.index(after: close)...]
        }
        append(rest)
        return failed ? nil : pieces
    }

    /// Whether `text` reads an environment variable: a `${` that is not `$${`.
    static func readsEnvironment(_ text: String) -> Bool {
        guard mayInterpolate(text) else { return false }
        var previous: [UInt8] = [0, 0]
        for byte in text.utf8 {
            if previous[1] == UInt8(ascii: "$"), byte == UInt8(ascii: "{"), previous[0] != UInt8(ascii: "$") {
                return true
            }
            previous = [previous[1], byte]
        }
        return false
    }

    /// Whether `text` has a `${`, found with a byte scan.
    static func mayInterpolate(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if previous == UInt8(ascii: "$"), byte == UInt8(ascii: "{") { return true }
            previous = byte
        }
        return false
    }

    static func isEnvironmentName(_ name: Substring) -> Bool {
        guard let first = name.utf8.first, first == UInt8(ascii: "_") || ParamSpec.isNameByte(first, first: true) else {
            return false
        }
        return name.utf8.allSatisfy {
            $0 == UInt8(ascii: "_") || (ParamSpec.isNameByte($0, first: false) && $0 != UInt8(ascii: "-"))
        }
    }
}
