import MoyaHTTP
import MoyaJSONPath
import MoyaRegex
import MoyaSpec
import MoyaYAML

extension CompileContext {
    static let checkKeys = ["name", "params", "sample", "pages", "live", "expect"]
    static let expectKeys = ["status", "headers", "json", "body", "maxTime", "matchesSample", "schema", "events"]
    /// The keys of `expect.events`.
    static let eventExpectKeys = ["count", "any", "all", "last", "sequence"]
    static let predicateKeys = [
        "equals", "exists", "type", "contains", "matches", "lt", "le", "gt", "ge", "count", "oneOf", "not",
    ]

    /// A target's `checks`: a sequence of checks, each naming only the target's params and
    /// samples, with known predicates and valid JSON paths.
    mutating func checks(
        _ node: YAMLNode, _ path: @autoclosure () -> String, target: String, params: [ParamSpec],
        sampleNames: [String], paginated: Bool
    ) -> [CheckSpec] {
        guard case .sequence(let items) = node.content else {
            if !node.isNull {
                reader.error(node.mark, path(), "expected a sequence of checks, got \(node.kindDescription)")
            }
            return []
        }
        var checks: [CheckSpec] = []
        var names: Set<String> = []
        for (index, item) in items.enumerated() {
            let checkPath = "\(path())[\(index)]"
            guard let fields = reader.fields(item, checkPath, known: Self.checkKeys, nearby: Self.expectKeys) else {
                continue
            }
            var name = "check \(index + 1)"
            if let node = fields["name"], let text = reader.string(node, checkPath + ".name") { name = text }
            if !names.insert(name).inserted {
                reader.error(fields["name"]?.mark ?? item.mark, checkPath + ".name", "duplicate check name '\(name)'")
            }
            var arguments: [String: ParamValue] = [:]
            var given: Set<String> = []
            if let node = fields["params"], let entries = reader.fields(node, checkPath + ".params", known: nil) {
                for entry in entries {
                    given.insert(entry.key)
                    let paramPath = checkPath + ".params." + entry.key
                    guard let param = params.first(where: { $0.name == entry.key }) else {
                        let declared = params.map(\.name)
                        reader.error(
                            entry.mark, paramPath,
                            "unknown param '\(entry.key)'"
                                + (declared.isEmpty
                                    ? "; the target takes no params"
                                    : Suggestion.hint(for: entry.key, in: declared)))
                        continue
                    }
                    if let value = paramValue(entry.value, paramPath, param: param) { arguments[param.name] = value }
                }
            }
            for param in params where param.isRequired && !given.contains(param.name) {
                reader.error(
                    fields["params"]?.mark ?? item.mark, checkPath + ".params",
                    "the check does not give required param '\(param.name)'")
            }
            var sample: String?
            if let node = fields["sample"], let text = reader.string(node, checkPath + ".sample") {
                if sampleNames.contains(text) {
                    sample = text
                } else {
                    reader.error(
                        node.mark, checkPath + ".sample",
                        "unknown sample '\(reader.written(node, text))'"
                            + (sampleNames.isEmpty
                                ? "; the target has no named samples"
                                : reader.written(node, text) == text ? Suggestion.hint(for: text, in: sampleNames) : "")
                    )
                }
            }
            // Failures name assertions from the check down, such as expect.json.$.id.
            let assertions = (fields["expect"].map { expect($0, checkPath + ".expect") } ?? []).map { assertion in
                var short = assertion
                short.keyPath = String(assertion.keyPath.dropFirst(checkPath.count + 1))
                return short
            }
            checks.append(
                CheckSpec(name: name, arguments: arguments, sample: sample, assertions: assertions, mark: item.mark))
            checks[checks.count - 1].pages = fields["pages"].flatMap {
                pageCount($0, checkPath + ".pages", target: target, paginated: paginated)
            }
            if let node = fields["live"], let live = reader.bool(node, checkPath + ".live") {
                checks[checks.count - 1].isLive = live
            }
        }
        return checks
    }

    private mutating func paramValue(_ node: YAMLNode, _ path: String, param: ParamSpec) -> ParamValue? {
        if param.type == .object, case .mapping = node.content { return objectValue(node, path, name: param.name) }
        let texts: [YAMLNode]
        if case .sequence(let items) = node.content {
            guard param.type.isArray else {
                reader.error(node.mark, path, "param '\(param.name)' takes one value, not a sequence")
                return nil
            }
            texts = items
        } else {
            texts = [node]
        }
        var values: [String] = []
        for item in texts {
            guard let text = reader.string(item, path) else { return nil }
            values.append(text)
        }
        do {
            return try param.value(from: values)
        } catch {
            reader.error(node.mark, path, error.message)
            return nil
        }
    }

    /// A check's or a step's `expect`; with `variables`, a flow step's, whose `status` may be
    /// a variable (`"{item.code}"`), filled in when the step runs.
    mutating func expect(_ node: YAMLNode, _ path: String, variables: Bool = false) -> [Assertion] {
        guard let fields = reader.fields(node, path, known: Self.expectKeys, nearby: Self.checkKeys) else { return [] }
        var assertions: [Assertion] = []
        // What an expected value reads from the environment is a secret, as it is in a request.
        func add(
            _ subject: Assertion.Subject, _ predicate: Predicate?, _ keyPath: String, _ written: YAMLNode,
            at mark: Mark? = nil, secret: Bool = false
        ) {
            guard let predicate else { return }
            var assertion = Assertion(
                subject: subject, predicate: predicate, keyPath: keyPath, mark: mark ?? written.mark)
            assertion.expectsSecret = secret || Self.readsEnvironment(written)
            assertions.append(assertion)
        }
        for entry in fields {
            let keyPath = path + "." + entry.key
            let value = entry.value
            switch entry.key {
            case "status":
                add(.status, status(value, keyPath, variables: variables), keyPath, value)
            case "headers":
                guard let headers = reader.fields(value, keyPath, known: nil) else { continue }
                for header in headers {
                    let headerPath = keyPath + "." + header.key
                    // A credential header's value is a secret wherever it is written.
                    add(
                        .header(header.key), predicate(header.value, headerPath), headerPath, header.value,
                        at: header.mark, secret: CredentialNames.headers.contains(header.key.lowercased()))
                }
            case "json":
                guard let paths = reader.fields(value, keyPath, known: nil) else { continue }
                for member in paths {
                    let memberPath = keyPath + "." + member.key
                    let jsonPath: JSONPath
                    do {
                        jsonPath = try JSONPath(parsing: member.key)
                    } catch {
                        reader.error(member.mark, memberPath, "bad JSON path '\(member.key)': \(error)")
                        continue
                    }
                    add(.json(jsonPath), predicate(member.value, memberPath), memberPath, member.value, at: member.mark)
                }
            case "body":
                add(.body, predicate(value, keyPath), keyPath, value)
            case "maxTime":
                add(.time, duration(value, keyPath).map { .compare(.le, $0) }, keyPath, value)
            case "schema":
                // `true` for the target's schema, or a schema of its own.
                if case .scalar = value.content {
                    add(.schema(nil), reader.bool(value, keyPath) == true ? .all([]) : nil, keyPath, value)
                } else if let schema = schema(value, keyPath) {
                    add(.schema(schema), .all([]), keyPath, value)
                }
            case "events":
                guard let kinds = reader.fields(value, keyPath, known: Self.eventExpectKeys) else { continue }
                for kind in kinds {
                    let kindPath = keyPath + "." + kind.key
                    switch kind.key {
                    case "count":
                        add(.events(.count), predicate(kind.value, kindPath), kindPath, kind.value, at: kind.mark)
                    case "sequence":
                        guard case .sequence(let steps) = kind.value.content, !steps.isEmpty else {
                            reader.error(
                                kind.value.mark, kindPath,
                                "expected a sequence of steps, each a mapping of JSON paths, such as - { $.event: start }"
                            )
                            continue
                        }
                        var matches: [[EventMatch]] = []
                        for (index, step) in steps.enumerated() {
                            guard let step = eventMatches(step, kindPath + "[\(index)]") else { continue }
                            matches.append(step)
                        }
                        guard matches.count == steps.count else { continue }
                        add(.events(.sequence(matches)), .all([]), kindPath, kind.value, at: kind.mark)
                    default:
                        guard let matches = eventMatches(kind.value, kindPath) else { continue }
                        let expectation: EventExpectation =
                            kind.key == "any" ? .any(matches) : kind.key == "all" ? .all(matches) : .last(matches)
                        add(.events(expectation), .all([]), kindPath, kind.value, at: kind.mark)
                    }
                }
            default:  // matchesSample
                add(.sampleShape, reader.bool(value, keyPath) == true ? .all([]) : nil, keyPath, value)
            }
        }
        return assertions
    }

    /// A mapping of an event's JSON paths to predicates, as `json:` is written.
    private mutating func eventMatches(_ node: YAMLNode, _ path: String) -> [EventMatch]? {
        guard let paths = reader.fields(node, path, known: nil) else { return nil }
        var matches: [EventMatch] = []
        for member in paths {
            let memberPath = path + "." + member.key
            do {
                let jsonPath = try JSONPath(parsing: member.key)
                guard let predicate = predicate(member.value, memberPath) else { return nil }
                matches.append(EventMatch(path: jsonPath, predicate: predicate))
            } catch {
                reader.error(member.mark, memberPath, "bad JSON path '\(member.key)': \(error)")
                return nil
            }
        }
        guard !matches.isEmpty else {
            reader.error(node.mark, path, "expected at least one JSON path of an event, such as $.data.type")
            return nil
        }
        return matches
    }

    /// Whether any text in a node reads the environment (`${VAR}`); nesting is bounded by the
    /// loader's depth limit.
    static func readsEnvironment(_ node: YAMLNode?) -> Bool {
        guard let node else { return false }
        switch node.content {
        case .scalar(let text, _): return SpecReader.mayInterpolate(text)
        case .sequence(let items): return items.contains { readsEnvironment($0) }
        case .mapping(let pairs): return pairs.contains { readsEnvironment($0.value) }
        }
    }

    /// A status: a code, a list of codes, a class such as `2xx`, or a predicate mapping; with
    /// `variables`, also text with a flow variable in it, which must come out a code.
    private mutating func status(_ node: YAMLNode, _ path: String, variables: Bool) -> Predicate? {
        switch node.content {
        case .scalar(let text, _):
            if let code = YAMLScalar.parseInteger(text), (100...999).contains(code) { return .equals(.integer(code)) }
            if variables, VariableTemplate.hasReference(text) { return .equals(.string(text)) }
            let bytes = Array(text.lowercased().utf8)
            if bytes.count == 3, (UInt8(ascii: "1")...UInt8(ascii: "5")).contains(bytes[0]),
                bytes[1] == UInt8(ascii: "x"), bytes[2] == UInt8(ascii: "x")
            {
                return .statusClass(Int(bytes[0] - UInt8(ascii: "0")))
            }
            reader.error(
                node.mark, path,
                "expected a status code, a list of codes or a class such as 2xx, got '\(reader.written(node, text))'")
            return nil
        case .sequence(let items):
            var codes: [JSONValue] = []
            for item in items {
                guard let text = item.scalar, let code = YAMLScalar.parseInteger(text), (100...999).contains(code)
                else {
                    reader.error(item.mark, path, "expected a status code, got \(reader.describe(item))")
                    return nil
                }
                codes.append(.integer(code))
            }
            return .oneOf(codes)
        case .mapping:
            return predicate(node, path)
        }
    }

    /// A predicate: a mapping of predicate names, or a plain value meaning equality.
    private mutating func predicate(_ node: YAMLNode, _ path: String) -> Predicate? {
        guard case .mapping = node.content else { return literal(node, path).map { .equals($0) } }
        guard let fields = reader.fields(node, path, known: nil) else { return nil }
        var predicates: [Predicate] = []
        for entry in fields {
            let keyPath = path + "." + entry.key
            let value = entry.value
            switch entry.key {
            case "equals":
                if let literal = literal(value, keyPath) { predicates.append(.equals(literal)) }
            case "exists":
                if let present = reader.bool(value, keyPath) { predicates.append(.exists(present)) }
            case "type" where value.isNull:
                predicates.append(.type(.null))
            case "type":
                if let name = reader.choice(value, keyPath, JSONType.allCases.map(\.rawValue), what: "type"),
                    let type = JSONType(rawValue: name)
                {
                    predicates.append(.type(type))
                }
            case "contains":
                if let literal = literal(value, keyPath) { predicates.append(.contains(literal)) }
            case "matches":
                guard let pattern = reader.string(value, keyPath) else { continue }
                do throws(RegularExpression.SyntaxError) {
                    predicates.append(.matches(try RegularExpression(pattern)))
                } catch {
                    reader.error(value.mark, keyPath, "'\(pattern)' is not a valid regular expression: \(error)")
                }
            case "lt", "le", "gt", "ge":
                if let bound = reader.number(value, keyPath), let comparison = Predicate.Comparison(rawValue: entry.key)
                {
                    predicates.append(.compare(comparison, bound))
                }
            case "count":
                if let count = reader.integer(value, keyPath) { predicates.append(.count(count)) }
            case "oneOf":
                guard case .sequence(let items) = value.content else {
                    reader.error(value.mark, keyPath, "expected a sequence of values, got \(value.kindDescription)")
                    continue
                }
                let values = items.enumerated().compactMap { literal($1, "\(keyPath)[\($0)]") }
                if values.count == items.count { predicates.append(.oneOf(values)) }
            case "not":
                if let inner = predicate(value, keyPath) { predicates.append(.not(inner)) }
            default:
                let hint = Suggestion.hint(for: entry.key, in: Self.predicateKeys)
                reader.error(
                    entry.mark, keyPath,
                    "unknown predicate '\(entry.key)'"
                        + (hint.isEmpty ? "; expected one of \(Self.predicateKeys.joined(separator: ", "))" : hint))
            }
        }
        guard !predicates.isEmpty else { return nil }
        return predicates.count == 1 ? predicates[0] : .all(predicates)
    }

    /// A YAML value as JSON, typed by scalar style as everywhere else in a spec.
    mutating func literal(_ node: YAMLNode, _ path: String) -> JSONValue? {
        switch node.content {
        case .scalar:
            return YAMLScalar.plainValue(node) ?? reader.string(node, path).map(JSONValue.string)
        case .sequence(let items):
            var values: [JSONValue] = []
            for (index, item) in items.enumerated() {
                guard let value = literal(item, "\(path)[\(index)]") else { return nil }
                values.append(value)
            }
            return .array(values)
        case .mapping:
            guard let fields = reader.fields(node, path, known: nil) else { return nil }
            var members: [(key: String, value: JSONValue)] = []
            for entry in fields {
                guard let value = literal(entry.value, path + "." + entry.key) else { return nil }
                members.append((entry.key, value))
            }
            return .object(members)
        }
    }

    /// A duration: `500ms`, `2s`, or a number of seconds.
    mutating func duration(_ node: YAMLNode, _ path: String) -> Double? {
        if case .scalar(let text, _) = node.content {
            let (number, scale): (Substring, Double) =
                text.hasSuffix("ms")
                ? (text.dropLast(2), 0.001) : text.hasSuffix("s") ? (text.dropLast(), 1) : (Substring(text), 1)
            if let value = YAMLScalar.parseFloat(String(number))
                ?? YAMLScalar.parseInteger(String(number)).map(Double.init),
                value > 0
            {
                return value * scale
            }
        }
        reader.error(node.mark, path, "expected a duration such as 500ms or 2s, got \(reader.describe(node))")
        return nil
    }
}
