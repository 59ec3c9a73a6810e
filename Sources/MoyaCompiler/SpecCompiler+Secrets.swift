import MoyaHTTP
import MoyaSpec
import MoyaYAML

extension SpecCompiler {
    /// The keys of one `secrets:` entry: one store, and what it may add.
    static let secretSourceKeys = ["pass", "keyring", "dotenv", "key", "command", "timeout"]
    /// The stores, one of which an entry names.
    static let secretStores = ["pass", "keyring", "dotenv", "command"]
}

extension CompileContext {
    /// A `secrets:` mapping: each `${NAME}` to where its value comes from. Its text is read as
    /// written, `${VAR}` and all: a source names a place, and is never built from values.
    mutating func secretSources(_ node: YAMLNode, _ path: String, origin: SecretSource.Origin)
        -> [String: SecretSource]
    {
        guard case .mapping(let pairs) = node.content else {
            if !node.isNull {
                reader.error(
                    node.mark, path, "expected a mapping of variable names to sources, got \(node.kindDescription)")
            }
            return [:]
        }
        var sources: [String: SecretSource] = [:]
        for pair in pairs {
            guard let name = pair.key.scalar else {
                reader.error(pair.key.mark, path, "variable names must be scalars")
                continue
            }
            let entryPath = path + "." + name
            guard SpecReader.isEnvironmentName(Substring(name)) else {
                reader.error(
                    pair.key.mark, entryPath,
                    "\"\(name)\" is not a valid variable name; use letters, digits and '_', not starting with a digit")
                continue
            }
            guard sources[name] == nil else {
                reader.error(pair.key.mark, entryPath, "duplicate variable '\(name)'")
                continue
            }
            if let source = secretSource(name, pair.value, entryPath, origin: origin) { sources[name] = source }
        }
        return sources
    }

    private mutating func secretSource(
        _ name: String, _ node: YAMLNode, _ path: String, origin: SecretSource.Origin
    ) -> SecretSource? {
        guard let fields = reader.fields(node, path, known: SpecCompiler.secretSourceKeys) else { return nil }
        let stores = fields.filter { SpecCompiler.secretStores.contains($0.key) }
        guard stores.count == 1, let store = stores.first else {
            reader.error(
                node.mark, path,
                stores.isEmpty
                    ? "name where \(name) comes from: one of pass, keyring, dotenv or command"
                    : "name one store, not \(stores.map(\.key).joined(separator: " and "))")
            return nil
        }
        let storePath = path + "." + store.key
        if let key = fields.first(where: { $0.key == "key" }), store.key != "dotenv" {
            reader.error(key.mark, path + ".key", "key goes with dotenv, not \(store.key)")
            return nil
        }
        let timeout = fields["timeout"].flatMap { reader.seconds($0, path + ".timeout") }
        let kind: SecretSource.Kind
        switch store.key {
        case "pass":
            guard let entry = reader.prose(store.value, storePath) else { return nil }
            guard Self.isPassEntry(entry) else {
                reader.error(
                    store.value.mark, storePath,
                    "\"\(entry)\" is not a pass entry; write its name in the store, such as github/token, "
                        + "without a leading '/' or '-' and without '..'")
                return nil
            }
            kind = .pass(entry: entry)
        case "keyring":
            guard let attributes = keyringAttributes(store.value, storePath) else { return nil }
            kind = .keyring(attributes: attributes)
        case "dotenv":
            guard let written = reader.prose(store.value, storePath), !written.isEmpty else {
                if store.value.scalar?.isEmpty == true { reader.error(store.value.mark, storePath, "name a file") }
                return nil
            }
            // Inside the file root, as every file a spec reads; one missing now is reported
            // when it is read.
            let resolved = resolve(relativePath: written)
            do {
                if FileRoot.realPath(resolved) != nil {
                    _ = try fileRoot.file(resolved)
                } else {
                    _ = try fileRoot.destination(resolved)
                }
            } catch  where error.reason != .noFolder {
                reader.error(store.value.mark, storePath, error.description)
                return nil
            } catch {}
            var key = name
            if let node = fields["key"] {
                guard let written = reader.prose(node, path + ".key") else { return nil }
                guard SpecReader.isEnvironmentName(Substring(written)) else {
                    reader.error(node.mark, path + ".key", "\"\(written)\" is not a variable name a dotenv file sets")
                    return nil
                }
                key = written
            }
            kind = .dotenv(file: written, key: key)
        default:
            guard let argv = commandLine(store.value, storePath) else { return nil }
            kind = .command(argv)
        }
        if fields["timeout"] != nil, timeout == nil { return nil }
        return SecretSource(
            kind: kind, timeout: timeout ?? SecretSource.defaultTimeout, origin: origin, file: file,
            mark: store.value.mark)
    }

    /// A keyring lookup's attributes, in order: at least one, each a string.
    private mutating func keyringAttributes(_ node: YAMLNode, _ path: String) -> [SecretSource.Attribute]? {
        guard case .mapping(let pairs) = node.content, !pairs.isEmpty else {
            reader.error(
                node.mark, path, "expected the attributes to look up, such as { service: moya, account: db }")
            return nil
        }
        var attributes: [SecretSource.Attribute] = []
        for pair in pairs {
            guard let name = pair.key.scalar, !name.isEmpty, !name.hasPrefix("-") else {
                reader.error(pair.key.mark, path, "an attribute's name is a word, not starting with '-'")
                return nil
            }
            guard let value = reader.prose(pair.value, path + "." + name) else { return nil }
            guard !value.hasPrefix("-"), !attributes.contains(where: { $0.name == name }) else {
                reader.error(
                    pair.value.mark, path + "." + name,
                    value.hasPrefix("-") ? "an attribute's value does not start with '-'" : "duplicate attribute")
                return nil
            }
            attributes.append(SecretSource.Attribute(name: name, value: value))
        }
        return attributes
    }

    /// A program and its arguments: a non-empty list of strings, run without a shell.
    private mutating func commandLine(_ node: YAMLNode, _ path: String) -> [String]? {
        guard case .sequence(let items) = node.content, !items.isEmpty else {
            reader.error(
                node.mark, path, "expected the program and its arguments as a list, such as [op, read, \"op://…\"]")
            return nil
        }
        var argv: [String] = []
        for (index, item) in items.enumerated() {
            guard let word = reader.prose(item, "\(path)[\(index)]") else { return nil }
            argv.append(word)
        }
        guard let program = argv.first, !program.isEmpty, !program.contains("\u{0}") else {
            reader.error(node.mark, path, "the first word names the program")
            return nil
        }
        return argv
    }

    /// Whether `entry` names a pass entry as `pass show` reads one: a path in the store, not an
    /// option, going nowhere above it.
    static func isPassEntry(_ entry: String) -> Bool {
        guard !entry.isEmpty, !entry.hasPrefix("/"), !entry.hasPrefix("-"),
            !entry.utf8.contains(where: { $0 < 0x20 || $0 == 0x7f })
        else { return false }
        return !entry.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == ".." || $0.isEmpty }
    }
}
