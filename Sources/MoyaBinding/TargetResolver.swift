import MoyaHTTP
import MoyaSpec
import MoyaStreams

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a call binds: param values, an environment and a sample.
public struct CallOptions: Sendable {
    /// Typed param values by name; declared defaults fill the rest.
    public var arguments: [String: ParamValue]
    /// The environment chosen with `--env`.
    public var environment: String?
    /// The named sample chosen with `--sample`.
    public var sample: String?
    /// Arguments whose values are secrets though their params are not declared secret: a
    /// flow's captured secrets.
    public var secretArguments: Set<String>
    /// Changes to the request body, `call --body` and `--set`.
    public var body: BodyEdit?
    /// Whether the arguments come from the spec, as a check's or a flow step's params do: then
    /// a relative path in a `file` param is the spec file's, so that the spec works from any
    /// working directory. The command line's paths are the working directory's. A param's
    /// declared default is always the spec file's.
    public var argumentsFromSpec: Bool
    /// Whether the caller's arguments are held to their params' rules (`minimum`, `pattern`,
    /// …) before anything is sent; `call --no-validate-args` turns it off, to test a server.
    /// A spec's own values (a check's, a flow step's) are never held: a check may send a bad
    /// value on purpose.
    public var validatesArguments = true
    /// Whether the call sends nothing (a stub), so that a `${NAME}` a secret source gives
    /// (`ServiceSpec.secretSources`) is left unread, empty, rather than stopping the call.
    public var leavesSecretsUnread = false

    /// Creates call options.
    public init(
        arguments: [String: ParamValue] = [:], environment: String? = nil, sample: String? = nil,
        secretArguments: Set<String> = [], body: BodyEdit? = nil, argumentsFromSpec: Bool = false
    ) {
        self.arguments = arguments
        self.environment = environment
        self.sample = sample
        self.secretArguments = secretArguments
        self.body = body
        self.argumentsFromSpec = argumentsFromSpec
    }
}

/// A request body as the caller changes it: a whole body in place of the task's (`--body`),
/// then values set at paths into its JSON (`--set`). The task's body, the document's
/// example for an imported target, is the default.
public struct BodyEdit: Sendable {
    /// One value at one path, and how the user wrote it, for messages.
    public struct Field: Sendable {
        public var path: [JSONEditStep]
        public var value: JSONValue
        public var written: String

        public init(path: [JSONEditStep], value: JSONValue, written: String) {
            self.path = path
            self.value = value
            self.written = written
        }
    }

    /// The body sent instead of the task's, as given.
    public var whole: Data?
    /// The values set, in order, each on the result of the ones before.
    public var fields: [Field]

    public init(whole: Data? = nil, fields: [Field] = []) {
        self.whole = whole
        self.fields = fields
    }

    /// Reads `--set PATH=TEXT` (the value a string) or `--set PATH:=JSON` (the value JSON).
    public static func field(_ argument: String) throws(JSONEditError) -> Field {
        guard let equals = argument.firstIndex(of: "=") else {
            throw JSONEditError(
                description:
                    "--set '\(argument)': write PATH=TEXT, or PATH:=JSON for a number, boolean, null, array or object")
        }
        var path = argument[..<equals]
        let text = String(argument[argument.index(after: equals)...])
        let value: JSONValue
        if path.hasSuffix(":") {
            path = path.dropLast()
            do {
                value = try JSONValue(parsing: Data(text.utf8))
            } catch {
                throw JSONEditError(description: "--set '\(argument)': the value after := is not JSON: \(error)")
            }
        } else {
            value = .string(text)
        }
        do {
            return Field(path: try JSONEditStep.parse(String(path)), value: value, written: argument)
        } catch {
            throw JSONEditError(description: "--set \(error.description)")
        }
    }
}

extension ServiceSpec {
    /// Resolves `target` for a call: checks the arguments, binds them into every template and
    /// builds the Moya task. The result keeps what was bound, each value with its secrecy, so
    /// that `SpecTarget.masked()` renders the printable form from the same values.
    public func resolve(_ target: TargetSpec, with options: CallOptions) throws(ResolveError) -> SpecTarget {
        if let unset = unsetVariables(for: target, environment: options.environment).first(where: {
            !options.leavesSecretsUnread || secretSources[$0.name] == nil
        }) {
            throw ResolveError(message: unset.message(for: "\(name).\(target.name)"), isUsageError: true)
        }
        var resolver = TargetResolver(service: self, target: target)
        return try resolver.resolve(options)
    }
}

extension ServiceSpec {
    /// The sample `name` of `target`, else its default sample, with its templates filled from
    /// `values` and the params' defaults, as `serve` answers. Params with no value render as
    /// absent. With `masking`, secret values render as `Redactor.placeholder`.
    public func sample(
        of target: TargetSpec, named name: String?, values: [String: ParamValue], masking: Bool = false
    ) throws(ResolveError) -> EndpointSampleResponse {
        let resolver = sampleResolver(of: target, values: values, masking: masking)
        return try resolver.makeSample(name.flatMap { target.sample(named: $0) } ?? target.sample)
    }

    /// How a stream sample's body is paced, as `serve` sends it: each event's length in the
    /// body `sample(of:named:values:)` makes, with the seconds to wait before it. Nil for a
    /// sample that is not a stream.
    public func samplePacing(
        of target: TargetSpec, named name: String?, values: [String: ParamValue]
    ) -> [(length: Int, delay: Double)]? {
        guard case .response(_, _, .events(let events))? = name.flatMap({ target.sample(named: $0) }) ?? target.sample
        else { return nil }
        let kind = target.stream?.kind ?? .sse
        return sampleResolver(of: target, values: values, masking: false).sampleEvents(events).map {
            ($0.event.wire(as: kind).count, $0.delay ?? 0)
        }
    }

    /// A resolver for a sample: `values` and the params' defaults bound.
    private func sampleResolver(of target: TargetSpec, values: [String: ParamValue], masking: Bool) -> TargetResolver {
        var resolver = TargetResolver(service: self, target: target)
        resolver.masking = masking
        for param in target.params {
            guard let value = values[param.name] ?? param.defaultValue else { continue }
            resolver.binding.values[param.name] = value
            if param.holdsSecret(value, given: values[param.name] != nil) {
                resolver.binding.maskedParams.insert(param.name)
            }
        }
        return resolver
    }

    /// A sample's body as `serve` answers it, for the compiler's sample checks
    /// (`SpecCompiler.sampleBodies`); nil for a sample with no body or one that fails.
    public static let sampleBody: SampleBodies = { service, target, name, values in
        switch try? service.sample(of: target, named: name, values: values) {
        case .networkResponse(_, let data)?, .response(_, let data)?: data
        default: nil
        }
    }
}

/// What one call bound, once: each param's value with whether it is secret, the environment
/// and the sample chosen. The request and its printable form are both rendered from it.
public struct TargetBinding: Sendable {
    let service: ServiceSpec
    let target: TargetSpec
    /// Param values by name, the declared defaults included.
    public internal(set) var values: [String: ParamValue] = [:]
    /// The params whose values are secret and print as the mask. A secret file param is not
    /// among them: its path must be read, and its value is scrubbed instead.
    public internal(set) var maskedParams: Set<String> = []
    var environment: EnvironmentSpec?
    var sample: SampleSpec?
    /// The named sample chosen, nil for the default.
    var sampleName: String?
    /// The caller's changes to the body.
    var body: BodyEdit?
    /// The params the caller gave on the command line: a path that is one of them whole is
    /// the caller's own, and is not confined to the spec's file root.
    var callerParams: Set<String> = []
}

struct TargetResolver {
    var binding: TargetBinding
    var service: ServiceSpec { binding.service }
    var target: TargetSpec { binding.target }
    /// What this rendering bound secret: values, and header names secret whole.
    var secrets = SecretSet.none
    /// Whether secrets render as `Redactor.placeholder`, for the printable form.
    var masking = false

    init(service: ServiceSpec, target: TargetSpec) {
        binding = TargetBinding(service: service, target: target)
    }

    init(binding: TargetBinding, masking: Bool) {
        self.binding = binding
        self.masking = masking
    }

    /// The value bound to `name` as this rendering shows it: the mask's placeholder for a
    /// secret when masking.
    func value(_ name: String) -> ParamValue? {
        guard let value = binding.values[name] else { return nil }
        return masking && binding.maskedParams.contains(name) ? Self.masked(value) : value
    }

    mutating func resolve(_ options: CallOptions) throws(ResolveError) -> SpecTarget {
        try bind(
            options.arguments, secret: options.secretArguments, fromSpec: options.argumentsFromSpec,
            validates: options.validatesArguments)
        binding.body = options.body
        if let name = options.environment {
            guard let found = service.environment(named: name) else {
                throw Self.missing(
                    "environment", name, of: "service '\(service.name)'", has: service.environments.map(\.name))
            }
            binding.environment = found
        }
        if let name = options.sample {
            guard let named = target.sample(named: name) else {
                throw Self.missing(
                    "sample", name, of: "target '\(service.name).\(target.name)'", has: target.samples.map(\.name))
            }
            binding.sample = named
            binding.sampleName = name
        } else {
            binding.sample = target.sample
        }
        return try render()
    }

    /// The usage error for a `kind` named `name` that `owner` does not have, with those it has.
    static func missing(_ kind: String, _ name: String, of owner: String, has names: [String]) -> ResolveError {
        ResolveError(
            message: "\(owner) has no \(kind) '\(name)'"
                + (names.isEmpty ? "" : "; it has \(names.joined(separator: ", "))"),
            isUsageError: true)
    }

    /// The target rendered from `binding`: real values, or with `masking` the printable form.
    mutating func render() throws(ResolveError) -> SpecTarget {
        let environment = binding.environment
        let base = target.baseURL ?? environment?.baseURL ?? service.baseURL
        guard var baseURL = URL(string: base) else {
            throw ResolveError(message: "the base URL \(base) is not a valid URL", isUsageError: false)
        }

        var headers = HTTPHeaders()
        secrets.add(service.environmentSecrets)
        for header in service.headers + (environment?.headers ?? []) + target.headers {
            headers.remove(name: header.name)
            if header.isSecret || header.value.params.contains(where: { target.param(named: $0)?.isSecret == true }) {
                secrets.add([], headers: [header.name])
            }
            guard let value = render(header.value, inHeader: !header.isSecret) else { continue }
            if header.isSecret, !masking { secrets.add([value]) }
            guard HTTPHeaders.isValidValue(value) else {
                throw ResolveError(
                    message: "header \(header.name): a param's value has a line break, which a header may not hold",
                    isUsageError: true)
            }
            headers.update(name: header.name, value: value)
        }
        if let cookies = renderCookies() {
            // A `Cookie` the headers already give comes first; both are sent as one header.
            headers.update(name: "Cookie", value: headers["Cookie"].map { $0 + "; " + cookies } ?? cookies)
        }

        let task = try makeTask(headers: &headers, baseURL: &baseURL)
        let sample = try makeSample(binding.sample)
        var sampleData = Data()
        if case .response(_, let body) = sample { sampleData = body }

        let auth = target.auth ?? service.auth
        let authorization = makeAuthorization(auth)
        if let token = authorization?.token {
            guard HTTPHeaders.isValidValue(token) else {
                throw ResolveError(
                    message: "auth: the credentials have a line break, which a header may not hold", isUsageError: true)
            }
            if !masking { secrets.add([token]) }
        }

        var login: LoginSpec?
        if case .login(let spec)? = auth {
            login = spec
            // A login's token sent as a header of its own makes that header secret.
            if case .header(let name) = spec.scheme { secrets.add([], headers: [name]) }
        }
        var rendered = SpecTarget(
            service: service.name, name: target.name, baseURL: baseURL, path: renderPath(target.path),
            method: target.method, task: task, headerFields: headers,
            sampleData: sampleData,
            validationType: target.validation(in: service),
            sampleResponse: sample,
            authorizationType: authorization?.type, accessToken: authorization?.token,
            secrets: secrets, login: login,
            binding: binding)
        rendered.script = (target.stream?.script ?? []).map(renderStep)
        return rendered
    }

    /// A WebSocket script's step with its message bound: text as it renders, `send-json` as
    /// its value's JSON.
    private func renderStep(_ step: SocketStepSpec) -> SocketStep {
        switch step {
        case .send(let template): .send(render(template) ?? "")
        case .sendJSON(let value): .send((render(value) ?? .null).serialized(escapeSlashes: false))
        case .expect(let condition, let text, let within): .expect(condition, text: text, within: within)
        case .ping(let within): .ping(within: within)
        case .wait(let seconds): .wait(seconds)
        case .close(let code): .close(code: code)
        }
    }

    // MARK: - Params

    mutating func bind(
        _ arguments: [String: ParamValue], secret: Set<String> = [], fromSpec: Bool = false, validates: Bool = false
    ) throws(ResolveError) {
        for name in arguments.keys.sorted() where target.param(named: name) == nil {
            let names = target.params.map(\.name)
            let declared = names.isEmpty ? "it takes no params" : "it takes \(names.joined(separator: ", "))"
            throw ResolveError(
                message: "target '\(service.name).\(target.name)' has no param '\(name)'; \(declared)"
                    + Suggestion.hint(for: name, in: names),
                isUsageError: true)
        }
        let credentials = service.credentialParams(of: target)
        for param in target.params {
            guard var value = arguments[param.name] ?? param.defaultValue else {
                if param.isRequired {
                    throw ResolveError(
                        message:
                            "target '\(service.name).\(target.name)' needs param '\(param.name)' (\(param.type)); pass --\(param.name) VALUE or \(param.name)=VALUE",
                        isUsageError: true)
                }
                continue
            }
            let isCallers = !fromSpec && arguments[param.name] != nil
            if isCallers { binding.callerParams.insert(param.name) }
            if isCallers, validates, let rules = param.rules {
                let shown = !(param.isSecret || secret.contains(param.name) || credentials.contains(param.name))
                if let first = rules.violations(value, showing: shown).first {
                    throw ResolveError(
                        message: "param '\(param.name)': \(first)", isUsageError: true,
                        hint: "--no-validate-args sends it anyway")
                }
            }
            if param.elementType == .file {
                if !isCallers { value = inSpecDirectory(value) }
                let paths: [ParamValue]
                if case .array(let items) = value { paths = items } else { paths = [value] }
                for path in paths {
                    if isCallers {
                        guard FileSystem.isRegularFile(path.description) else {
                            throw ResolveError(
                                message: "param '\(param.name)': no file at \(path.description)", isUsageError: true)
                        }
                    } else {
                        do {
                            _ = try service.fileRoot.file(path.description)
                        } catch {
                            throw ResolveError(message: "param '\(param.name)': \(error)", isUsageError: false)
                        }
                    }
                }
            }
            let isSecret =
                param.holdsSecret(value, given: arguments[param.name] != nil) || secret.contains(param.name)
                || credentials.contains(param.name)
            if isSecret {
                collectSecrets(value)
                if param.elementType != .file { binding.maskedParams.insert(param.name) }
            }
            binding.values[param.name] = value
        }
    }

    /// File paths the spec gives, each relative to the spec file's folder.
    private func inSpecDirectory(_ value: ParamValue) -> ParamValue {
        if case .array(let items) = value { return .array(items.map(inSpecDirectory)) }
        return .string(service.path(value.description))
    }

    /// A secret value as the masked twin holds it: each item the placeholder.
    static func masked(_ value: ParamValue) -> ParamValue {
        if case .array(let items) = value { return .array(items.map(masked)) }
        return .string(Redactor.placeholder)
    }

    private mutating func collectSecrets(_ value: ParamValue) {
        if case .array(let items) = value {
            items.forEach { collectSecrets($0) }
        } else if case .object(let members) = value {
            members.forEach { collectSecrets($0.value) }
        } else if !value.description.isEmpty {
            secrets.add([value.description])
        }
    }

    // MARK: - Templates

    /// A template's text, or nil when it is one reference to an absent optional param, or only
    /// environment references that came out empty: then a header, a parameter or a JSON member
    /// is left out, as an unset credential is.
    ///
    /// Environment values are secrets here unless `environmentIsSecret` is false, as for a
    /// local file's path. In a header (`inHeader`), a masked rendering writes each as a
    /// reference to its variable (`Redactor.reference(to:)`), which a printed command expands.
    func render(_ template: Template, environmentIsSecret: Bool = true, inHeader: Bool = false) -> String? {
        if let whole = template.wholeParam, binding.values[whole] == nil { return nil }
        // Decided from the values, never from what a masked rendering prints.
        if template.isEmptyEnvironment(binding: service.boundVariables) { return nil }
        if let text = template.literalText { return text }
        var output = ""
        for segment in template.segments {
            switch segment {
            case .literal(let text): output += text
            case .param(let name):
                // An object exploded is `R=1,G=2`, as a header's simple style writes it.
                if case .object(let members)? = value(name), let style = target.param(named: name)?.style,
                    style.explode
                {
                    output += style.simpleText(.object(members)) { $0 }
                } else {
                    output += value(name)?.description ?? ""
                }
            case .environmentDefault(_, let value): output += value
            case .environment(let name, let compiled):
                let value = service.boundValue(of: name, compiled: compiled)
                guard masking, environmentIsSecret, !value.isEmpty else {
                    output += value
                    continue
                }
                output += inHeader ? Redactor.reference(to: name) : Redactor.placeholder
            }
        }
        return output
    }

    /// The target's cookies as one `Cookie` header value (`a=1; b=2`), each value
    /// percent-encoded past RFC 6265's cookie-octet; nil when none is sent. A cookie whose
    /// whole value is an absent optional param, or an empty credential, is left out. The
    /// header is a credential header, printed masked whole.
    mutating func renderCookies() -> String? {
        var pairs: [(name: String, value: String)] = []
        for cookie in target.cookies {
            // An array or object param is OpenAPI's `form` style: exploded (the default) a pair
            // for each item or member, else one pair, the commas between the items literal.
            if let name = cookie.value.wholeParam, let param = target.param(named: name), let bound = value(name),
                param.type.isArray || param.type == .object
            {
                let style = param.style ?? ParamStyle.form
                for (key, texts) in style.cookiePairs(bound, name: cookie.name) {
                    let encoded = texts.map { PercentEncoding.encode($0, keeping: PercentEncoding.isCookieOctet) }
                    if cookie.isSecret, !masking { secrets.add(texts + encoded) }
                    // A member's name is a cookie name only where a cookie could have it.
                    guard HTTPHeaders.isValidName(key) else { continue }
                    pairs.append((key, encoded.joined(separator: ",")))
                }
                continue
            }
            guard let value = render(cookie.value) else { continue }
            let encoded = PercentEncoding.encode(value, keeping: PercentEncoding.isCookieOctet)
            if cookie.isSecret, !masking, !value.isEmpty { secrets.add([value, encoded]) }
            pairs.append((cookie.name, encoded))
        }
        return pairs.isEmpty ? nil : CookieJar.header(pairs)
    }

    /// A path with each param value encoded as one path segment.
    func renderPath(_ template: Template) -> String {
        if let text = template.literalText { return text }
        var output = ""
        for segment in template.segments {
            switch segment {
            case .literal(let text): output += text
            case .param(let name):
                // By the param's style, `simple` by default (an array `a,b`): each item, key and
                // value encoded, the separators literal; a label's items' dots encoded too.
                let style = target.param(named: name)?.style ?? ParamStyle.simple
                let label = style.style == .label
                output += style.pathText(value(name) ?? .string(""), name: name) { text in
                    let encoded = Self.encodeSegment(text)
                    return label ? encoded.replacing(".", with: "%2E") : encoded
                }
            // A path's environment values are where the request goes, not credentials.
            case .environment(let name, let value): output += service.boundValue(of: name, compiled: value)
            case .environmentDefault(_, let value): output += value
            }
        }
        return output
    }

    /// Percent-encodes everything but unreserved characters, and dots too when the value is
    /// only dots, so that `/` cannot add a segment and `..` cannot climb.
    static func encodeSegment(_ value: String) -> String {
        let onlyDots = !value.isEmpty && value.utf8.allSatisfy { $0 == UInt8(ascii: ".") }
        return PercentEncoding.encode(value) { byte in
            PercentEncoding.isUnreserved(byte) && !(onlyDots && byte == UInt8(ascii: "."))
        }
    }

    /// A JSON value with references bound, or nil when it is one reference to an absent
    /// optional param, so that its key is left out.
    func render(_ value: ValueTemplate) -> JSONValue? {
        switch value {
        case .null: return .null
        case .bool(let bool): return .bool(bool)
        case .integer(let int): return .integer(int)
        case .number(let double): return .number(double)
        case .string(let template):
            if let whole = template.typedParam {
                return self.value(whole).map(\.jsonValue)
            }
            return render(template).map(JSONValue.string)
        case .array(let items):
            return .array(items.compactMap { render($0) })
        case .object(let members):
            return .object(members.compactMap { member in render(member.value).map { (key: member.key, value: $0) } })
        }
    }

    /// A block's entries as parameters, each value the `JSONValue` it renders to, which every
    /// MoyaCore encoding takes as it is; in an ordered block a repeated key gathers its values.
    ///
    /// In a query or a form (`urlEncoded`), a param's style applies: an array not exploded is
    /// one value, its items joined; an object is its members as keys of their own (`form`
    /// exploded, the default), `name[key]` keys (`deepObject`), or one value (`R,1,G,2`).
    func parameters(_ block: ParameterBlock, urlEncoded: Bool = true) -> (
        parameters: [String: JSONValue], order: [String]
    ) {
        var values: [String: JSONValue] = [:]
        var order: [String] = []
        func add(_ key: String, _ value: JSONValue) {
            if block.isOrdered, let existing = values[key] {
                values[key] = .array(Self.items(of: existing) + Self.items(of: value))
            } else {
                values[key] = value
                order.append(key)
            }
        }
        for entry in block.entries {
            guard let value = render(entry.value) else { continue }
            var pairs = [(key: entry.key, value: value)]
            if urlEncoded, case .string(let template) = entry.value, let name = template.wholeParam,
                let param = target.param(named: name)
            {
                if let bound = self.value(name),
                    let entries = (param.style ?? .form).formEntries(bound, key: entry.key)
                {
                    pairs = entries.map { ($0.key, .string($0.text)) }
                }
            }
            for (key, value) in pairs { add(key, value) }
        }
        return (values, order)
    }

    /// An array's items, or the one value.
    private static func items(of value: JSONValue) -> [JSONValue] {
        if case .array(let items) = value { return items }
        return [value]
    }

    func urlEncoding(_ spec: EncodingSpec, ordered: [String]?) -> URLEncoding {
        let destination: URLEncoding.Destination =
            switch spec.kind {
            case .queryString: .queryString
            case .httpBody: .httpBody
            default: .methodDependent
            }
        let arrays: URLEncoding.ArrayEncoding =
            switch spec.arrays {
            case .brackets: ordered == nil ? .brackets : .noBrackets
            case .noBrackets: .noBrackets
            case .indexInBrackets: .indexInBrackets
            }
        return URLEncoding(
            destination: destination, arrayEncoding: arrays, boolEncoding: spec.bools == .literal ? .literal : .numeric,
            keyOrder: ordered)
    }

    func encoding(_ spec: EncodingSpec, ordered: [String]?) -> any ParameterEncoding {
        switch spec.kind {
        case .json: JSONEncoding.default
        case .prettyJSON: JSONEncoding.prettyPrinted
        default: urlEncoding(spec, ordered: ordered)
        }
    }
}
