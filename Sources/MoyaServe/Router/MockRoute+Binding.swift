import MoyaHTTP
import MoyaSpec

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Why a request does not fit a target: a param missing or of the wrong type, or a body
/// that cannot be read.
struct MockProblem: Sendable, Hashable {
    /// The param, if the problem is one param's.
    var param: String?
    /// Where it was looked for: `the path`, `query 'q'`, `the JSON body at $.name`, `the body`.
    var place: String
    /// What is wrong, as a phrase: `expects an int, got "abc"`.
    var detail: String

    var sentence: String {
        if let param { "param '\(param)' in \(place) \(detail)" } else { "\(place) \(detail)" }
    }
}

/// A request's values for one route's params, and what did not fit.
struct MockBinding: Sendable {
    var values: [String: ParamValue] = [:]
    var problems: [MockProblem] = []
    /// How much of what the target declares the request carries, to choose among targets at
    /// one method and path.
    var fit = 0
}

extension MockRoute {
    /// Reads the params of `request` as this target places them, typed as declared.
    func bind(
        captures: [(name: String, text: Substring)], query: [(key: String, value: String)], request: MockRequest
    ) -> MockBinding {
        var binding = MockBinding()
        // Where `bodyRequired:` says whether a body may be left out, a left-out body's params are
        // not reported: with `true`, the body is one problem (not one per param); with `false`,
        // its required params are required only in a body.
        let contentType = request.header("content-type")?.lowercased() ?? ""
        // An empty body sent as a form (its Content-Type given) is a form with no fields.
        let emptyForm = !form.isEmpty && contentType.hasPrefix("application/x-www-form-urlencoded")
        let leftOutBody = target.bodyRequired != nil && request.body.isEmpty && !emptyForm
        if leftOutBody, target.bodyRequired == true {
            binding.problems.append(
                MockProblem(place: "the body", detail: "is required: the target takes \(target.task.bodyDescription)"))
        }
        if target.params.isEmpty, literalQueryKeys.isEmpty, json == nil, form.isEmpty, !multipart { return binding }
        var texts: [String: (place: String, values: [String])] = [:]
        func found(_ name: String, _ text: some StringProtocol, _ place: String) {
            texts[name, default: (place, [])].values.append(String(text))
        }
        // An array sent as one empty value: present, with no items.
        func foundEmpty(_ name: String, _ place: String) {
            if texts[name] == nil { texts[name] = (place, []) }
        }
        // A path, header or cookie value as its param's style writes it (`simple` by default):
        // an array's items, an object's keys and values in turn; nil when it is not so written.
        func pieces(_ text: Substring, of name: String) -> [Substring]? {
            guard let param = target.param(named: name) else { return [text] }
            let style = param.style ?? ParamStyle.simple
            return style.pathTexts(text, name: name, type: param.type)
        }
        for capture in captures {
            guard let texts = pieces(capture.text, of: capture.name) else {
                binding.problems.append(
                    MockProblem(
                        param: capture.name, place: "the path",
                        detail:
                            "is not written in its style (\(target.param(named: capture.name)?.style?.style.rawValue ?? "simple"))"
                    ))
                continue
            }
            if texts.isEmpty { foundEmpty(capture.name, "the path") }
            for text in texts { found(capture.name, PercentEncoding.decode(text), "the path") }
        }

        for key in literalQueryKeys where query.contains(where: { Self.key($0.key, is: key) }) { binding.fit += 1 }
        read(query, entries: self.query, forms: queryForms, place: { "query '\($0)'" }, into: found)

        if !form.isEmpty {
            if contentType.isEmpty || contentType.hasPrefix("application/x-www-form-urlencoded") {
                let pairs = Self.pairs(String(decoding: request.body, as: UTF8.self)[...])
                read(pairs, entries: form, forms: formForms, place: { "form field '\($0)'" }, into: found)
            } else {
                binding.problems.append(
                    MockProblem(place: "the body", detail: "should be a form (application/x-www-form-urlencoded)"))
            }
        }
        // When the body cannot be read, its params are not reported missing as well.
        var unreadable = leftOutBody
        if let json, !request.body.isEmpty, contentType.hasPrefix("application/x-www-form-urlencoded"),
            case .object(let members) = json
        {
            // The same fields sent as a form, as a description that lists both media types
            // allows: each top-level member a form field.
            let pairs = Self.pairs(String(decoding: request.body, as: UTF8.self)[...])
            read(pairs, entries: members, forms: [:], place: { "form field '\($0)'" }, into: found)
        } else if json != nil, !request.body.isEmpty, Self.isXML(contentType) {
            // The same body as XML, as a description that lists both allows: its params are
            // not bound, and it is held to `requestSchema:` as the router reads it.
            unreadable = true
        } else if let json, !request.body.isEmpty {
            do {
                let value = try JSONValue(parsing: Data(request.body))
                bind(json, value, path: "$", problems: &binding.problems, into: found, empty: foundEmpty)
            } catch {
                binding.problems.append(MockProblem(place: "the body", detail: "is not JSON: \(error)"))
                unreadable = true
            }
        }
        // The file parts a request carries: present, never read as a path.
        var files: Set<String> = []
        if let parts, !leftOutBody {
            if !contentType.hasPrefix("multipart/form-data") {
                binding.problems.append(MockProblem(place: "the body", detail: "should be a multipart/form-data form"))
                unreadable = true
            } else if let sent = MultipartReading.parts(of: request.body, contentType: contentType) {
                files = read(sent, as: parts, into: found, problems: &binding.problems)
                binding.fit += files.count
            } else {
                binding.problems.append(
                    MockProblem(place: "the body", detail: "is not a multipart form its Content-Type's boundary ends"))
                unreadable = true
            }
        }
        for header in headers {
            guard let value = request.header(header.name) else { continue }
            for capture in Template.captures(of: header.value, in: value[...]) ?? [] {
                if let param = target.param(named: capture.name), param.type == .object || param.type.isArray,
                    header.value.count == 1
                {
                    let style = param.style ?? ParamStyle.simple
                    let texts =
                        style.split(capture.text, type: param.type, between: ",", equals: style.explode) ?? []
                    if texts.isEmpty { foundEmpty(capture.name, "header \(header.name)") }
                    for text in texts { found(capture.name, text, "header \(header.name)") }
                    continue
                }
                found(capture.name, capture.text, "header \(header.name)")
            }
        }
        if !cookies.isEmpty {
            // Each value percent-decoded, as `call` encodes it.
            let sent = CookieJar.pairs(inHeader: request.header("cookie") ?? "")
            for cookie in cookies {
                // An array or object param in the form style: exploded, a pair for each item (or
                // each member, a cookie no other entry names); else one value split at commas.
                if cookie.value.count == 1, case .param(let name) = cookie.value[0],
                    let param = target.param(named: name),
                    param.type.isArray || param.type == .object
                {
                    let style = param.style ?? ParamStyle.form
                    let place = "cookie \(cookie.name)"
                    switch param.type {
                    case .object where style.explode:
                        for pair in sent where !cookies.contains(where: { $0.name == pair.name }) {
                            found(name, pair.name, place)
                            found(name, PercentEncoding.decode(pair.value[...]), place)
                        }
                    case _ where style.explode:
                        for pair in sent where pair.name == cookie.name {
                            found(name, PercentEncoding.decode(pair.value[...]), place)
                        }
                    default:
                        guard let value = sent.first(where: { $0.name == cookie.name })?.value else { continue }
                        for piece in style.split(value[...], type: param.type, between: ",", equals: false) ?? [] {
                            found(name, PercentEncoding.decode(piece), place)
                        }
                    }
                    continue
                }
                guard let value = sent.first(where: { $0.name == cookie.name })?.value else { continue }
                for capture in Template.captures(of: cookie.value, in: PercentEncoding.decode(value[...])[...]) ?? [] {
                    found(capture.name, capture.text, "cookie \(cookie.name)")
                }
            }
        }

        var sentEmpty: Set<String> = []
        for (name, entry) in texts.sorted(by: { $0.key < $1.key }) {
            guard let param = target.param(named: name), !entry.values.isEmpty || param.type.isArray else { continue }
            // An optional param sent empty (`?pretty=`) is left out where it allows that
            // (OpenAPI's `allowEmptyValue`, a flag with no value); else the empty text is read
            // as its type reads it. Text may be empty.
            if param.allowsEmptyValue, entry.values == [""], param.type != .string {
                sentEmpty.insert(name)
                continue
            }
            // An array sent as one empty value is one empty item (RFC 6570's `[""]`) or, where
            // that does not fit, no items: clients send an empty list so too, and the wire
            // cannot tell the two apart.
            let readings = param.type.isArray && entry.values == [""] ? [entry.values, []] : [entry.values]
            var problem: MockProblem?
            for texts in readings {
                do {
                    let value = try Self.value(of: param, sent: texts)
                    // The param's rules (`minimum`, `pattern`, …), as `call` holds its arguments to them.
                    if let rules = param.rules, let broken = rules.violations(value, showing: !param.isSecret).first {
                        problem =
                            problem
                            ?? MockProblem(param: name, place: entry.place, detail: "breaks its rules: \(broken)")
                        continue
                    }
                    binding.values[name] = value
                    binding.fit += 1
                    problem = nil
                    break
                } catch {
                    problem = problem ?? MockProblem(param: name, place: entry.place, detail: error.message)
                }
            }
            if let problem { binding.problems.append(problem) }
        }
        for param in target.params
        where param.mustBeSent && binding.values[param.name] == nil && !files.contains(param.name)
            && !sentEmpty.contains(param.name)
        {
            guard let place = places[param.name], !binding.problems.contains(where: { $0.param == param.name }),
                !(unreadable && (place.hasPrefix("the JSON body") || place.hasPrefix("part "))),
                !(leftOutBody && (place.hasPrefix("form field") || place.hasPrefix("part ")))
            else {
                continue
            }
            binding.problems.append(MockProblem(param: param.name, place: place, detail: "is required"))
        }
        return binding
    }

    /// The typed value of what a request sent for `param`: as the CLI reads it, except that
    /// an enum's request carries a case's value, not its key.
    static func value(of param: ParamSpec, sent texts: [String]) throws(ParamValueError) -> ParamValue {
        if param.type == .object {
            guard texts.count % 2 == 0 else {
                throw ParamValueError(param: param.name, message: "is not an object's keys and values")
            }
            return ParamSpec.object(keysAndValues: texts)
        }
        guard case .enumeration(let cases) = param.elementType else {
            do {
                return param.type.isArray ? try param.value(from: texts) : try param.parse(texts[0])
            } catch {
                // An integer past `Int` is still an integer, which OpenAPI's `integer`
                // allows: it is taken as its digits.
                guard param.elementType == .int, texts.allSatisfy(isWholeNumber) else { throw error }
                let values = texts.map { text in Int(text).map(ParamValue.int) ?? .string(text) }
                return param.type.isArray ? .array(values) : values[0]
            }
        }
        var values: [ParamValue] = []
        // Looked up, not searched: many values against many cases stay linear.
        let allowed = Set(cases.map(\.value))
        for text in texts {
            guard allowed.contains(text) else {
                let shown = param.isSecret ? "a secret value" : "\"\(text)\""
                throw ParamValueError(
                    param: param.name,
                    message: "expects one of \(cases.map(\.value).joined(separator: ", ")), got \(shown)")
            }
            values.append(.string(text))
        }
        return param.type.isArray ? .array(values) : values[0]
    }

    /// Reads a multipart form's value parts as their params, as the target's `parts` place
    /// them; the file params whose parts came.
    private func read(
        _ sent: [MultipartReading.Part], as parts: [MultipartPartSpec],
        into found: (String, Substring, String) -> Void, problems: inout [MockProblem]
    ) -> Set<String> {
        var files: Set<String> = []
        for part in parts {
            // An array or object param a style writes: as `TargetResolver.partPieces` makes it.
            if case .value(let template) = part.content, let name = template.wholeParam,
                let param = target.param(named: name), param.type == .object || param.style?.explode == false
            {
                let style = param.style ?? ParamStyle.form
                let place = "part '\(part.name)'"
                for piece in sent {
                    let text = String(decoding: piece.content, as: UTF8.self)
                    if param.type == .object, style.style == .deepObject {
                        guard piece.name.hasPrefix(part.name + "["), piece.name.hasSuffix("]") else { continue }
                        found(name, piece.name.dropFirst(part.name.count + 1).dropLast(), place)
                        found(name, text[...], place)
                    } else if param.type == .object, style.explode {
                        guard !parts.contains(where: { $0.name == piece.name }) else { continue }
                        found(name, piece.name[...], place)
                        found(name, text[...], place)
                    } else if piece.name == part.name {
                        for item in style.split(
                            text[...], type: param.type, between: Character(style.separator), equals: false) ?? []
                        {
                            found(name, item, place)
                        }
                    }
                }
                continue
            }
            for piece in sent where piece.name == part.name {
                switch part.content {
                case .file(let template):
                    if let name = template.wholeParam { files.insert(name) }
                case .value(let template):
                    let text = String(decoding: piece.content, as: UTF8.self)
                    for capture in Template.captures(of: template.segments, in: text[...]) ?? [] {
                        // A part is text: a bool is `true` or `false`, as call writes it and as
                        // OpenAPI has it, not the `1` or `yes` an argument may be.
                        if let param = target.param(named: capture.name), param.elementType == .bool,
                            capture.text != "true", capture.text != "false"
                        {
                            let shown = param.isSecret ? "a secret value" : "\"\(capture.text)\""
                            problems.append(
                                MockProblem(
                                    param: param.name, place: "part '\(part.name)'",
                                    detail: "expects true or false, got \(shown)"))
                            continue
                        }
                        found(capture.name, capture.text, "part '\(part.name)'")
                    }
                }
            }
        }
        return files
    }

    /// Reads the values of a query's or a form's entries, in the form `call` writes each:
    /// an array's items under `key`, `key[]` or `key[N]` as its block says, or as one value
    /// split at its style's separator.
    private func read(
        _ pairs: [(key: String, value: String)], entries: [ValueTemplate.Member], forms: [String: EntryForm],
        place: (String) -> String, into found: (String, Substring, String) -> Void
    ) {
        for entry in entries {
            guard case .string(let template) = entry.value else { continue }
            let form = forms[entry.key] ?? EntryForm()
            if let members = form.members, let name = template.wholeParam {
                // An object's members: `key[member]=value`, or every key no other entry has.
                for pair in pairs {
                    let member: Substring
                    switch members {
                    case .deep:
                        guard pair.key.hasPrefix(entry.key + "["), pair.key.hasSuffix("]"),
                            pair.key.count > entry.key.count + 2
                        else { continue }
                        member = pair.key.dropFirst(entry.key.count + 1).dropLast()
                    case .ownKeys:
                        guard !entries.contains(where: { (forms[$0.key] ?? EntryForm()).matches(pair.key, $0.key) })
                        else { continue }
                        member = pair.key[...]
                    }
                    found(name, member, place(entry.key))
                    found(name, pair.value[...], place(entry.key))
                }
                continue
            }
            for pair in pairs where form.matches(pair.key, entry.key) {
                if let separator = form.separator, let name = template.wholeParam {
                    // An empty value is one empty item here, as RFC 6570 expands `[""]`; the
                    // binding reads it as no items where that does not fit.
                    for item in pair.value.split(separator: separator, omittingEmptySubsequences: false) {
                        found(name, item, place(entry.key))
                    }
                    continue
                }
                for capture in Template.captures(of: template.segments, in: pair.value[...]) ?? [] {
                    found(capture.name, capture.text, place(entry.key))
                }
            }
        }
    }

    /// Walks a JSON body along the target's shape of it, reading the value where each param
    /// stands. The depth is the shape's, which the spec bounds.
    private func bind(
        _ shape: ValueTemplate, _ value: JSONValue, path: String, problems: inout [MockProblem],
        into found: (String, Substring, String) -> Void, empty: (String, String) -> Void
    ) {
        let place = "the JSON body at \(path)"
        switch (shape, value) {
        case (_, .null):
            return
        case (.string(let template), _):
            if let name = template.wholeParam {
                let items: [JSONValue]
                if case .array(let elements) = value, target.param(named: name)?.type.isArray == true {
                    // An empty array is sent: present, with no items.
                    if elements.isEmpty { empty(name, place) }
                    items = elements
                } else {
                    items = [value]
                }
                for item in items {
                    guard let text = Self.scalarText(item) else {
                        problems.append(
                            MockProblem(
                                param: name, place: place, detail: "expects a scalar, got \(Self.kind(of: item))"))
                        return
                    }
                    found(name, text[...], place)
                }
            } else if case .string(let text) = value {
                for capture in Template.captures(of: template.segments, in: text[...]) ?? [] {
                    found(capture.name, capture.text, place)
                }
            }
        case (.object(let members), .object(let given)):
            for member in members {
                guard let match = given.first(where: { $0.key == member.key }) else { continue }
                bind(
                    member.value, match.value, path: "\(path).\(member.key)", problems: &problems, into: found,
                    empty: empty)
            }
        case (.array(let items), .array(let given)):
            for (index, item) in items.enumerated() where index < given.count {
                bind(
                    item, given[index], path: "\(path)[\(index)]", problems: &problems, into: found, empty: empty)
            }
        default:
            return
        }
    }

    /// The exact decimal digits of an integral, finite double, however large: its 53-bit
    /// significand doubled once for each power of two past it (at most 971 times, for the
    /// 309 digits of the largest double). Foundation's `Decimal` stops near 1e165.
    static func digits(of double: Double) -> String {
        if let int = Int(exactly: double) { return String(int) }
        let magnitude = double.magnitude
        var digits = String((UInt64(1) << 52) | magnitude.significandBitPattern).utf8.reversed().map { $0 - 48 }
        for _ in 0..<max(0, magnitude.exponent - 52) {
            var carry: UInt8 = 0
            for index in digits.indices {
                let doubled = digits[index] * 2 + carry
                digits[index] = doubled % 10
                carry = doubled / 10
            }
            if carry > 0 { digits.append(carry) }
        }
        return (double < 0 ? "-" : "") + String(decoding: digits.reversed().map { $0 + 48 }, as: UTF8.self)
    }

    /// `-12`, `340282366920938463463374607431768211456`: digits, after an optional sign.
    static func isWholeNumber(_ text: String) -> Bool {
        let digits = text.hasPrefix("-") || text.hasPrefix("+") ? text.dropFirst() : text[...]
        return !digits.isEmpty && isDigits(digits.utf8)
    }

    /// Whether every byte is an ASCII digit.
    static func isDigits(_ bytes: some Sequence<UInt8>) -> Bool {
        bytes.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    static func scalarText(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .integer(let int): String(int)
        // An integral number past `Int` (`-1.0012e+28`, `1.7976931348623157e+308`, which
        // JSON Schema counts as integers) as its digits, which an `int` param takes.
        case .number(let double) where double.isFinite && double.rounded() == double:
            digits(of: double)
        case .number(let double): JSONValue.format(double)
        case .bool(let bool): bool ? "true" : "false"
        case .null, .array, .object: nil
        }
    }

    /// Whether a content type is XML: `application/xml`, `text/xml`, `application/atom+xml`.
    static func isXML(_ contentType: String) -> Bool {
        let essence = String(contentType.prefix { $0 != ";" }).trimmingSpaces()
        return essence.hasSuffix("/xml") || essence.hasSuffix("+xml")
    }

    static func kind(of value: JSONValue) -> String {
        switch value {
        case .array: "an array"
        case .object: "an object"
        default: "a scalar"
        }
    }

    /// Whether a query or form key names `key`: as written, or with `[]` or `[N]` after it.
    static func key(_ given: String, is key: String) -> Bool {
        guard given.hasPrefix(key) else { return false }
        let rest = given.utf8.dropFirst(key.utf8.count)
        guard let open = rest.first else { return true }
        guard open == UInt8(ascii: "["), rest.last == UInt8(ascii: "]") else { return false }
        return rest.dropFirst().dropLast().allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// The `key=value` pairs of a query or a form body, decoded.
    static func pairs(_ text: Substring) -> [(key: String, value: String)] {
        // Split on the bytes, not on characters: `&` and `=` are ASCII, so each piece starts
        // and ends on a character, and a 16 MiB form is not read grapheme by grapheme.
        text.utf8.split(separator: UInt8(ascii: "&")).map { bytes in
            let pair = Substring(bytes)
            guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else {
                return (PercentEncoding.decode(pair, plusIsSpace: true), "")
            }
            return (
                PercentEncoding.decode(pair[..<equals], plusIsSpace: true),
                PercentEncoding.decode(pair[pair.utf8.index(after: equals)...], plusIsSpace: true)
            )
        }
    }
}
