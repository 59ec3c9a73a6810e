import MoyaHTTP
import MoyaSchema
import MoyaSpec
import MoyaYAML
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Compiles one spec file into a `ServiceSpec`, reporting every problem it finds.
public struct SpecCompiler: Sendable {
    /// The environment `${VAR}` reads; injected so tests never touch the process's. Every
    /// reference stays a template segment that names its variable, set or at its default, so
    /// code generated and documents exported from a spec compiled on `Environment.none`
    /// read the variable when they run and hold no value of it.
    public var environment: Environment
    /// How a sample's body is rendered to be checked against its schema, as `validate` does
    /// (a sample that breaks it is an error at the sample, one per violation): the binding
    /// stage's, `ServiceSpec.sampleBody` in MoyaBinding. Nil: samples are not checked.
    public var sampleBodies: SampleBodies? = nil
    public typealias SampleBodies = ServiceSpec.SampleBodies
    /// The folder `--file-root` names, where every file a spec reads or writes must be; nil
    /// for each spec's own folder (see `FileRoot`).
    public var fileRoot: String?
    /// The specs that may read no environment variable that is set, and why: those found in
    /// the working directory that the user has not trusted. A `${VAR}` in them that names a
    /// set variable is then a spec error saying this; an unset one takes its default.
    public var refusesEnvironment: EnvironmentRefusal?
    /// The user's own `secrets.yaml`: sources for every service, under each spec's own
    /// `secrets:`. Its problems are every spec's, since each spec reads it.
    public var userSecrets: UserSecrets?

    static let serviceKeys = [
        "service", "baseURL", "headers", "validation", "timeout", "retry", "followRedirects", "stub", "auth",
        "environments", "targets", "flows", "mcp", "secrets",
    ]
    /// The keys of a service's `mcp:`.
    static let serviceMCPKeys = ["prefix"]
    /// The keys of an environment.
    static let environmentKeys = ["baseURL", "headers"]
    /// The keys of a header or cookie written as a mapping.
    static let headerValueKeys = ["value", "secret"]
    /// The keys of `stub:` written as a mapping.
    static let stubKeys = ["delayed"]
    /// The keys of `auth:`, one of which it holds, and of its `basic` and `custom` forms.
    static let authKeys = ["bearer", "basic", "custom", "login"]
    static let basicAuthKeys = ["user", "password"]
    static let customAuthKeys = ["scheme", "token"]
    /// The keys of a sample mapping.
    static let sampleKeys = ["status", "headers", "body", "json", "file", "events", "error", "schema"]
    static let targetKeys = [
        "summary", "description", "params", "path", "method", "headers", "cookies", "task", "sample", "samples",
        "validation", "auth",
        "timeout", "retry", "followRedirects", "checks", "schema", "requestSchema", "bodyRequired", "mcp",
        "baseURL", "paginate", "stream",
    ]

    /// Creates a compiler reading `environment`.
    public init(environment: Environment) {
        self.environment = environment
    }

    /// Reads and compiles the spec file at `path`.
    public func compile(file path: String) throws(SpecError) -> ServiceSpec {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.contents(path)
        } catch {
            throw SpecError([
                Diagnostic(file: path, mark: Mark(line: 1, column: 1), keyPath: "spec", message: error.message)
            ])
        }
        return try compile(bytes, file: path)
    }

    /// Compiles what a call of `target` needs from the spec file at `path`: the service and
    /// that target, with the target its login calls, if any. Every other target and the flows
    /// are left unread (see `SpecOutline`), and so are the files schemas' `$ref`s name (a call
    /// sends no schema), so a call's time does not grow with the spec or its documents.
    /// When the file's layout is not one the outline reads, or the partial compile finds a
    /// problem, the whole file is compiled, so that problems are reported as `validate` would.
    public func compile(file path: String, target: String) throws(SpecError) -> ServiceSpec {
        // The file read, its outline made, and only the lines the target needs copied out.
        let partial = FileSystem.withContents(path) { bytes in
            SpecOutline(bytes).flatMap { outline in
                compilePartially(bytes, outline: outline, file: path, target: target)
            }
        }
        if let service = partial ?? nil { return service }
        return try compile(file: path)
    }

    /// A first look at a large spec file: the service with its first `count` targets alone
    /// (and the targets their logins call), and the names of all its targets in file order.
    /// What is left unread is the other targets and the flows (see `SpecOutline`). Nil when
    /// the outline cannot cut the file or the cut does not compile: compile the whole file,
    /// which reports why.
    public func preview(file path: String, firstTargets count: Int) -> (service: ServiceSpec, targets: [String])? {
        let preview = FileSystem.withContents(path) { bytes -> (ServiceSpec, [String])? in
            guard let outline = SpecOutline(bytes) else { return nil }
            let names = outline.targets.map { String(decoding: bytes[$0.name], as: UTF8.self) }
            var keep = Set(names.prefix(count))
            // Twice at most: a second pass adds the targets the first one's logins call.
            for _ in 0..<2 {
                guard let partial = outline.keeping(keep, of: bytes),
                    let service = try? compile(partial.text, file: path, partial: partial.lines)
                else { return nil }
                let logins = ([service.auth] + service.targets.map(\.auth)).compactMap { auth -> String? in
                    guard case .login(let login)? = auth, login.service == nil else { return nil }
                    return login.target
                }
                let missing = Set(logins).subtracting(keep)
                if missing.isEmpty { return (service, names) }
                keep.formUnion(missing)
            }
            return nil
        }
        return preview ?? nil
    }

    /// Compiles what a call of `target` needs from spec text, as `compile(file:target:)` does.
    public func compile(_ bytes: [UInt8], file: String, target: String) throws(SpecError) -> ServiceSpec {
        let partial = bytes.withUnsafeBufferPointer { buffer in
            SpecOutline(buffer).flatMap { outline in
                compilePartially(buffer, outline: outline, file: file, target: target)
            }
        }
        if let partial { return partial }
        return try compile(bytes, file: file)
    }

    /// The service with `target` and its login's target alone, from the lines `outline` keeps;
    /// nil when the outline cannot cut them out or they do not compile alone.
    private func compilePartially(
        _ bytes: UnsafeBufferPointer<UInt8>, outline: SpecOutline, file: String, target: String
    ) -> ServiceSpec? {
        var keep: Set<String> = [target]
        // The whole file, for a folder's trust to digest, when it may be asked.
        let whole = refusesEnvironment?.covers(file) == true ? Array(bytes) : nil
        // Twice at most: a second pass adds the target the first one's login calls.
        for _ in 0..<2 {
            guard let partial = outline.keeping(keep, of: bytes),
                let service = try? compile(
                    partial.text, file: file, partial: partial.lines, whole: whole, readsSchemaDocuments: false),
                let found = service.target(named: target)
            else { return nil }
            let logins = [service.auth, found.auth].compactMap { auth -> String? in
                guard case .login(let login)? = auth, login.service == nil else { return nil }
                return login.target
            }
            let missing = Set(logins).subtracting(keep)
            if missing.isEmpty { return service }
            keep.formUnion(missing)
        }
        return nil
    }

    /// Compiles spec text; `file` names it in diagnostics and anchors relative paths.
    public func compile(_ bytes: [UInt8], file: String) throws(SpecError) -> ServiceSpec {
        try compile(bytes, file: file, partial: nil)
    }

    /// With `partial`, the text holds only some of the file's lines (see `SpecOutline`), which
    /// the map takes back to the file's; a login's target is not required to be among them.
    /// `whole` is the file's bytes when `bytes` holds only some of its lines.
    /// Without `readsSchemaDocuments`, a schema's `$ref`s to other files are left unread
    /// (`CompileContext.readsSchemaDocuments`).
    func compile(
        _ bytes: [UInt8], file: String, partial: SpecOutline.LineMap?, whole: [UInt8]? = nil,
        readsSchemaDocuments: Bool = true
    ) throws(SpecError) -> ServiceSpec {
        let root: YAMLNode?
        do {
            root = try YAMLLoader.load(bytes)
        } catch {
            throw SpecError([Diagnostic(file: file, mark: error.mark, keyPath: "yaml", message: error.message)])
        }
        var reader = SpecReader(file: file, environment: environment)
        reader.checksSamples = sampleBodies != nil
        // The folder's trust digests the spec from the bytes read here when they are the
        // whole file; from a part of it, the file is read again.
        let read = partial == nil ? bytes : whole
        reader.refusesEnvironment = refusesEnvironment.flatMap { refusal in
            guard refusal.covers(file) else { return nil }
            return read.map { refusal.reading(file, $0) } ?? refusal
        }
        var context = CompileContext(reader: reader, file: file, fileRoot: FileRoot(spec: file, given: fileRoot))
        context.isPartial = partial != nil
        context.readsSchemaDocuments = readsSchemaDocuments
        context.sampleBodies = sampleBodies
        var tree = root ?? YAMLNode(.scalar("", .plain), mark: Mark(line: 1, column: 1))
        if let partial { tree = tree.remapped(partial) }
        var service = context.service(tree)
        if let userSecrets {
            context.reader.diagnostics += userSecrets.diagnostics
            let own = service?.secretSources ?? [:]
            service?.secretSources = userSecrets.sources.merging(own) { $1 }
        }
        // A store's value is bound after compiling, into what keeps its references apart.
        for variable in context.reader.unsetVariables where !variable.isBindable {
            guard let source = service?.secretSources[variable.name] else { continue }
            var place = variable.place
            place.severity = .error
            place.message =
                "${\(variable.name)} is not set, and its secret store (\(source)) is read as a call is sent, into "
                + "headers, auth, cookies, queries, bodies, paths, base URLs, param defaults and flow values only; "
                + "set \(variable.name) in the environment, or move the reference"
            context.reader.diagnostics.append(place)
        }
        for (problem, variables) in context.reader.unboundDefaults
        where !variables.contains(where: { service?.secretSources[$0] != nil }) {
            context.reader.diagnostics.append(problem)
        }
        guard var service, context.reader.diagnostics.isEmpty else {
            throw SpecError(context.reader.diagnostics.sorted { $0.mark < $1.mark })
        }
        service.warnings = context.reader.warnings.sorted { $0.mark < $1.mark }
        service.unsetVariables = context.reader.unsetVariables
        return service
    }
}

/// The state of one file's compilation.
struct CompileContext {
    var reader: SpecReader
    let file: String
    /// Where the files the spec names must be.
    let fileRoot: FileRoot
    /// The params the current target's templates have named so far.
    var usedParams: Set<String> = []
    /// Params of the target written with doubled braces (`{{id}}`), the literal text `{id}`.
    var literalParams: Set<String> = []
    /// Whether the text holds only some of the file's targets.
    var isPartial = false
    /// Whether a schema's `$ref`s to other files are read. A call sends no schema, and the
    /// OpenAPI document an imported spec's schemas refer to is most of a call's time when read
    /// (29 of 30 ms for a 3 MB one), so the partial compile a call makes leaves them: its
    /// schemas hold no documents, and every command that uses one compiles the whole file.
    var readsSchemaDocuments = true
    /// The documents schemas' `$ref`s have read, by path: a large OpenAPI document is read
    /// once for all its targets.
    var schemaDocuments: [String: JSONValue] = [:]
    /// The samples to hold to their schemas once the service is compiled, and how their
    /// bodies are rendered (`SpecCompiler.sampleBodies`).
    var sampleChecks: [SampleCheck] = []
    var sampleBodies: SpecCompiler.SampleBodies?
    /// The registry sample checks share, the documents added to it, and how many schemas.
    let sampleRegistry = SchemaRegistry()
    var sampleDocuments: Set<String> = []
    var sampleSchemaCount = 0

    init(reader: SpecReader, file: String, fileRoot: FileRoot) {
        self.reader = reader
        self.file = file
        self.fileRoot = fileRoot
    }

    /// The file's name without its directory and extension.
    var stem: String {
        var name = Substring(file)
        if let slash = name.lastIndex(of: "/") { name = name[name.index(after: slash)...] }
        if let dot = name.lastIndex(of: ".") { name = name[..<dot] }
        return String(name)
    }

    // MARK: - Service

    mutating func service(_ root: YAMLNode) -> ServiceSpec? {
        guard case .mapping = root.content else {
            reader.error(root.mark, "spec", "expected a mapping with baseURL and targets, got \(root.kindDescription)")
            return nil
        }
        guard let fields = reader.fields(root, "", known: SpecCompiler.serviceKeys, nearby: SpecCompiler.targetKeys)
        else { return nil }

        var name = stem
        var nameMark = root.mark
        if let node = fields["service"] {
            nameMark = node.mark
            if let value = reader.string(node, "service") {
                name = value
                if !ParamSpec.isValidName(value) {
                    reader.error(
                        node.mark, "service",
                        "\"\(reader.written(node, value))\" is not a valid service name; use letters, digits, '_' and '-', starting with a letter"
                    )
                }
            }
        } else if !ParamSpec.isValidName(name) {
            reader.error(
                root.mark, "service",
                "the file name \"\(name)\" is not a valid service name; set 'service:' to one that starts with a letter"
            )
        }

        // A file of flows alone, over other files' services, needs neither a base URL nor
        // targets.
        let flowsAlone = fields["flows"] != nil && fields["targets"] == nil
        var baseURL = ""
        var baseURLSource: Template?
        if let node = fields["baseURL"] {
            if let valid = self.baseURL(node, "baseURL") { (baseURL, baseURLSource) = valid }
        } else if !flowsAlone {
            reader.error(
                root.mark, "baseURL",
                "required key is missing; add the service's base URL, such as baseURL: https://api.example.com")
        }

        let headers = fields["headers"].map { self.headers($0, "headers") } ?? []
        let validation = fields["validation"].flatMap { self.validation($0, "validation") } ?? .successCodes
        let timeout = fields["timeout"].flatMap { reader.seconds($0, "timeout") }
        let retry = fields["retry"].flatMap { reader.retryCount($0, "retry") }
        let followsRedirects = fields["followRedirects"].flatMap { reader.bool($0, "followRedirects") }
        let stub = fields["stub"].flatMap { self.stub($0, "stub") }
        let auth = fields["auth"].flatMap { self.auth($0, "auth", params: []) }
        let environments = fields["environments"].map { self.environments($0, "environments") } ?? []

        var targets: [TargetSpec] = []
        if let node = fields["targets"] {
            for entry in reader.namedEntries(node, "targets", what: "target") {
                if var target = target(entry.name, entry.value, entry.path, mark: entry.mark) {
                    // A target at a ws: or wss: URL is a WebSocket's, declared or not.
                    let base = (target.baseURL ?? baseURL).lowercased()
                    if target.stream == nil, base.hasPrefix("ws://") || base.hasPrefix("wss://") {
                        target.stream = StreamSpec(kind: .websocket, mark: target.mark)
                    }
                    targets.append(target)
                }
            }
        } else if !flowsAlone {
            reader.error(
                root.mark, "targets",
                "required key is missing; declare at least one target, or flows: alone over other files' services")
        }

        let flows = fields["flows"].map { self.flows($0, "flows", service: name, targets: targets) } ?? []
        if case .login(let login)? = auth, login.service == nil, !isPartial,
            !targets.contains(where: { $0.name == login.target })
        {
            reader.error(
                login.mark, "auth.login.call",
                "unknown target '\(login.target)'" + Suggestion.hint(for: login.target, in: targets.map(\.name)))
        }

        var service = ServiceSpec(
            name: name, file: file, nameMark: nameMark, baseURL: baseURL, headers: headers, validation: validation,
            timeout: timeout, retry: retry, followsRedirects: followsRedirects,
            stub: stub, auth: auth, environments: environments, targets: targets, flows: flows,
            environmentSecrets: reader.environmentSecrets, baseURLSource: baseURLSource ?? Template(literal: baseURL))
        service.givenFileRoot = fileRoot.isGiven ? fileRoot.directory : nil
        if let node = fields["mcp"] { service.mcpPrefix = mcpPrefix(node) }
        if let node = fields["secrets"] { service.secretSources = secretSources(node, "secrets", origin: .spec) }
        checkSamples(of: service)
        return service
    }

    /// A service's `mcp: { prefix: NAME }`: what its tool names start with.
    mutating func mcpPrefix(_ node: YAMLNode) -> String? {
        guard let fields = reader.fields(node, "mcp", known: SpecCompiler.serviceMCPKeys),
            let prefix = fields["prefix"],
            let value = reader.string(prefix, "mcp.prefix")
        else { return nil }
        guard ParamSpec.isValidName(value), value.utf8.count <= ServiceSpec.mcpPrefixLimit else {
            reader.error(
                prefix.mark, "mcp.prefix",
                "\"\(reader.written(prefix, value))\" is not a valid tool prefix; use at most "
                    + "\(ServiceSpec.mcpPrefixLimit) letters, digits, '_' and '-', starting with a letter")
            return nil
        }
        return value
    }

    /// A base URL, checked, and its source when it reads the environment (`sourcedString`).
    mutating func baseURL(_ node: YAMLNode, _ path: @autoclosure () -> String) -> (text: String, source: Template?)? {
        // A base URL from the environment is where requests go, not a credential: it stays
        // readable in logs and dry runs.
        let secrets = reader.environmentSecrets
        defer { reader.environmentSecrets = secrets }
        let unset = reader.unsetVariables.count
        guard let read = reader.sourcedString(node, path()) else { return nil }
        let text = read.text
        // A variable that is not set leaves the URL unknown, not wrong: a call that needs it
        // stops before sending, naming the variable.
        if reader.unsetVariables.count > unset { return read }
        if let problem = ServiceSpec.baseURLProblem(text, shown: "\"\(reader.written(node, text))\"") {
            reader.error(node.mark, path(), problem)
            return nil
        }
        return read
    }

    mutating func environments(_ node: YAMLNode, _ path: @autoclosure () -> String) -> [EnvironmentSpec] {
        guard let fields = reader.fields(node, path(), known: nil) else { return [] }
        var result: [EnvironmentSpec] = []
        for entry in fields {
            let name = entry.key
            let value = entry.value
            let envPath = SpecReader.join(path(), name)
            guard let envFields = reader.fields(value, envPath, known: SpecCompiler.environmentKeys) else { continue }
            let baseURL = envFields["baseURL"].flatMap { self.baseURL($0, envPath + ".baseURL") }
            let headers = envFields["headers"].map { self.headers($0, envPath + ".headers") } ?? []
            result.append(
                EnvironmentSpec(name: name, baseURL: baseURL?.text, headers: headers, baseURLSource: baseURL?.source))
        }
        return result
    }

    // MARK: - Target

    mutating func target(_ name: String, _ node: YAMLNode, _ path: @autoclosure () -> String, mark: Mark) -> TargetSpec?
    {
        // A target's own key (`path: /x`) written at the targets' level is most likely indented
        // wrongly: it reads as a target of that name.
        if case .scalar = node.content, SpecCompiler.targetKeys.contains(name) {
            reader.error(
                mark, path(),
                "'\(name)' is a target's key, here at the level of the targets' names; is it indented correctly?")
            return nil
        }
        if node.isNull {
            reader.error(
                node.mark, path(), "a target needs at least a path or a method; write path: \"\" for the base URL")
            return nil
        }
        guard
            let fields = reader.fields(
                node, path(), known: SpecCompiler.targetKeys,
                nearby: SpecCompiler.serviceKeys + CompileContext.taskKinds + SpecCompiler.sampleKeys)
        else { return nil }
        let params = fields["params"].map { self.params($0, path() + ".params") } ?? []
        let scope = ParamScope(params: params)
        usedParams = []
        literalParams = []

        let summary = fields["summary"].flatMap { reader.prose($0, path() + ".summary") }
        let description = fields["description"].flatMap { reader.prose($0, path() + ".description") }
        var pathTemplate = Template(literal: "", mark: mark)
        if let node = fields["path"] {
            if node.isNull {
                pathTemplate = Template(literal: "", mark: node.mark)
            } else if let template = reader.template(node, path() + ".path") {
                // An array in a path is OpenAPI's simple style: its items joined by commas.
                check(template, path() + ".path", scope, allowArrays: true)
                pathTemplate = template
            }
        }
        var method = Method.get
        if let node = fields["method"], let text = reader.string(node, path() + ".method") {
            if let exact = Method.allKnown.first(where: { $0.rawValue == text }) {
                method = exact
            } else if let known = Method.allKnown.first(where: { $0.rawValue == text.uppercased() }) {
                method = known
            } else if Method.registered.contains(text) {
                method = Method(rawValue: text)
            } else {
                let names = Method.allKnown.map(\.rawValue)
                reader.error(
                    node.mark, path() + ".method",
                    "unknown HTTP method \"\(reader.written(node, text))\"; expected one of \(names.joined(separator: ", "))"
                        + ", or a method of IANA's registry in capitals (COPY, LOCK, PROPFIND, …)"
                        + (text == reader.written(node, text) ? Suggestion.hint(for: text.uppercased(), in: names) : "")
                )
            }
        }
        let headers = fields["headers"].map { self.headers($0, path() + ".headers", scope: scope) } ?? []
        let cookies =
            fields["cookies"].map { self.headers($0, path() + ".cookies", scope: scope, kind: "cookie") } ?? []
        let task = fields["task"].flatMap { self.task($0, path() + ".task", scope: scope) } ?? .plain
        let sample = fields["sample"].flatMap { self.sample($0, path() + ".sample", scope: scope) }
        // The target's schema, then the samples' own: the default sample's stands in for the
        // target's when the target has none.
        var schema = fields["schema"].flatMap { self.schema($0, path() + ".schema") }
        let requestSchema = fields["requestSchema"].flatMap { self.schema($0, path() + ".requestSchema") }
        var sampleSchemas: [String: SchemaSpec] = [:]
        if let node = fields["sample"], let own = sampleSchema(node, path() + ".sample") { schema = schema ?? own }
        if reader.checksSamples, let node = fields["sample"], sample != nil {
            sampleChecks.append(SampleCheck(target: name, mark: node.mark, path: path() + ".sample"))
        }
        var samples: [(name: String, sample: SampleSpec)] = []
        if let node = fields["samples"], let sampleFields = reader.fields(node, path() + ".samples", known: nil) {
            for entry in sampleFields {
                let sampleName = entry.key
                let value = entry.value
                let samplePath = path() + ".samples." + sampleName
                let parsed = self.sample(value, samplePath, scope: scope)
                if let parsed { samples.append((name: sampleName, sample: parsed)) }
                sampleSchemas[sampleName] = sampleSchema(value, samplePath)
                if reader.checksSamples, parsed != nil {
                    sampleChecks.append(
                        SampleCheck(target: name, sample: sampleName, mark: value.mark, path: samplePath))
                }
            }
        }
        let validation = fields["validation"].flatMap { self.validation($0, path() + ".validation") }
        let auth = fields["auth"].flatMap { self.auth($0, path() + ".auth", params: params) }
        let timeout = fields["timeout"].flatMap { reader.seconds($0, path() + ".timeout") }
        let retry = fields["retry"].flatMap { reader.retryCount($0, path() + ".retry") }
        let followsRedirects = fields["followRedirects"].flatMap { reader.bool($0, path() + ".followRedirects") }
        let exposed = fields["mcp"].flatMap { reader.bool($0, path() + ".mcp") } ?? true
        let bodyRequired = fields["bodyRequired"].flatMap { reader.bool($0, path() + ".bodyRequired") }
        if bodyRequired == true, let node = fields["bodyRequired"], !task.sendsBody(method) {
            reader.error(
                node.mark, path() + ".bodyRequired",
                "the task sends \(task.bodyDescription), so there is no body to require")
        }
        var targetBaseURL: String?
        var targetBaseURLSource: Template?
        if let node = fields["baseURL"], let valid = self.baseURL(node, path() + ".baseURL") {
            (targetBaseURL, targetBaseURLSource) = valid
        }
        for param in params where !usedParams.contains(param.name) {
            let written =
                literalParams.contains(param.name)
                ? "{{\(param.name)}} is the text {\(param.name)}; write {\(param.name)}, one brace each side, for the param"
                : "write {\(param.name)} where it goes"
            reader.warning(
                param.mark, path() + ".params." + param.name,
                "the target declares '\(param.name)' but never uses it; " + written)
        }
        let pagination = fields["paginate"].flatMap { self.pagination($0, path() + ".paginate", params: params) }
        let checks =
            fields["checks"].map {
                self.checks(
                    $0, path() + ".checks", target: name, params: params, sampleNames: samples.map(\.name),
                    paginated: pagination != nil)
            } ?? []

        var target = TargetSpec(
            name: name, summary: summary, description: description, params: params, path: pathTemplate, method: method,
            headers: headers, cookies: cookies,
            task: task, sample: sample, samples: samples, validation: validation, auth: auth, timeout: timeout,
            retry: retry, followsRedirects: followsRedirects, mark: mark, checks: checks, schema: schema,
            sampleSchemas: sampleSchemas, requestSchema: requestSchema, bodyRequired: bodyRequired, mcpExposed: exposed,
            baseURL: targetBaseURL, baseURLSource: targetBaseURLSource)
        target.pagination = pagination
        target.stream = fields["stream"].flatMap { self.stream($0, path() + ".stream", scope: scope) }
        if target.stream?.kind == .websocket, method != .get {
            reader.error(
                fields["method"]?.mark ?? mark, path() + ".method",
                "a WebSocket opens with GET, got \(method.rawValue)")
        }
        return target
    }

    /// The `schema:` of a sample written as a mapping.
    private mutating func sampleSchema(_ node: YAMLNode, _ path: String) -> SchemaSpec? {
        guard case .mapping(let pairs) = node.content, let entry = pairs.first(where: { $0.key.scalar == "schema" })
        else { return nil }
        return schema(entry.value, path + ".schema")
    }

    // MARK: - Shared values

    /// A block of headers, or with `kind` "cookie" of cookies: a cookie's name is a token, as a
    /// header's is, and its value may not break the `Cookie` header either.
    mutating func headers(
        _ node: YAMLNode, _ path: @autoclosure () -> String, scope: ParamScope = ParamScope(params: []),
        kind: String = "header"
    ) -> [HeaderSpec] {
        guard let fields = reader.fields(node, path(), known: nil) else { return [] }
        var headers: [HeaderSpec] = []
        for entry in fields {
            let name = entry.key
            let value = entry.value
            let headerPath = SpecReader.join(path(), name)
            let mark = entry.mark
            if !HTTPHeaders.isValidName(name) {
                reader.error(mark, headerPath, "\"\(name)\" is not a valid \(kind) name")
                continue
            }
            var valueNode = value
            var isSecret = false
            if let param = SpecReader.unquotedReference(value) {
                reader.unquotedReferenceError(value, param, headerPath)
                continue
            }
            if case .mapping = value.content {
                // { value: ..., secret: true }: a value that is a secret as a whole.
                guard let fields = reader.fields(value, headerPath, known: SpecCompiler.headerValueKeys) else {
                    continue
                }
                guard let node = fields["value"] else {
                    reader.error(
                        value.mark, headerPath, "a \(kind) written as a mapping needs value: and may have secret:")
                    continue
                }
                valueNode = node
                isSecret = fields["secret"].flatMap { reader.bool($0, headerPath + ".secret") } ?? false
            }
            guard let template = reader.template(valueNode, headerPath) else { continue }
            let hasLineBreak = template.segments.contains { segment in
                guard case .literal(let text) = segment else { return false }
                return !HTTPHeaders.isValidValue(text)
            }
            if hasLineBreak {
                reader.error(value.mark, headerPath, "a \(kind) value may not contain a line break")
                continue
            }
            check(template, headerPath, scope, allowArrays: true)
            headers.append(HeaderSpec(name: name, value: template, isSecret: isSecret))
        }
        return headers
    }

    mutating func validation(_ node: YAMLNode, _ path: @autoclosure () -> String) -> ValidationType? {
        if case .sequence(let items) = node.content {
            var codes: [Int] = []
            for (index, item) in items.enumerated() {
                guard let code = reader.integer(item, "\(path())[\(index)]") else { continue }
                guard (100...599).contains(code) else {
                    reader.error(
                        item.mark, "\(path())[\(index)]", "\(code) is not an HTTP status code; expected 100 to 599")
                    continue
                }
                codes.append(code)
            }
            return .customCodes(codes)
        }
        let names = ["none", "successCodes", "successAndRedirectCodes"]
        guard case .scalar = node.content else {
            reader.error(
                node.mark, path(),
                "expected none, successCodes, successAndRedirectCodes or a list of status codes, got \(node.kindDescription)"
            )
            return nil
        }
        switch reader.choice(node, path(), names, what: "validation") {
        case "none": return ValidationType.none
        case "successCodes": return .successCodes
        case "successAndRedirectCodes": return .successAndRedirectCodes
        default: return nil
        }
    }

    mutating func stub(_ node: YAMLNode, _ path: @autoclosure () -> String) -> StubBehavior? {
        if case .mapping = node.content {
            guard let fields = reader.fields(node, path(), known: SpecCompiler.stubKeys), let delay = fields["delayed"]
            else {
                if case .mapping(let pairs) = node.content, pairs.isEmpty {
                    reader.error(node.mark, path(), "expected never, immediate or { delayed: SECONDS }")
                }
                return nil
            }
            return reader.seconds(delay, path() + ".delayed").map { .delayed(seconds: $0) }
        }
        switch reader.choice(node, path(), ["never", "immediate"], what: "stub behaviour") {
        case "never": return .never
        case "immediate": return .immediate
        default: return nil
        }
    }

    mutating func auth(_ node: YAMLNode, _ path: @autoclosure () -> String, params: [ParamSpec]) -> AuthSpec? {
        let scope = ParamScope(params: params)
        if case .scalar = node.content {
            guard reader.choice(node, path(), ["none"], what: "auth") != nil else { return nil }
            return AuthSpec.none
        }
        if case .mapping(let pairs) = node.content, pairs.contains(where: { $0.key.scalar == "login" }) {
            return login(node, path())
        }
        guard let fields = reader.fields(node, path(), known: SpecCompiler.authKeys) else {
            return nil
        }
        guard fields.count == 1, let kind = fields.first?.key, let value = fields[kind] else {
            reader.error(node.mark, path(), "expected exactly one of bearer, basic or custom")
            return nil
        }
        let kindPath = path() + "." + kind
        switch kind {
        case "bearer":
            guard let token = reader.template(value, kindPath) else { return nil }
            check(token, kindPath, scope, allowArrays: false)
            return .bearer(token)
        case "basic":
            guard let basic = reader.fields(value, kindPath, known: SpecCompiler.basicAuthKeys) else { return nil }
            guard let userNode = basic["user"], let passwordNode = basic["password"] else {
                reader.error(value.mark, kindPath, "basic auth needs both user and password")
                return nil
            }
            guard let user = reader.template(userNode, kindPath + ".user"),
                let password = reader.template(passwordNode, kindPath + ".password")
            else { return nil }
            check(user, kindPath + ".user", scope, allowArrays: false)
            check(password, kindPath + ".password", scope, allowArrays: false)
            return .basic(user: user, password: password)
        default:
            guard let custom = reader.fields(value, kindPath, known: SpecCompiler.customAuthKeys) else { return nil }
            guard let schemeNode = custom["scheme"], let tokenNode = custom["token"] else {
                reader.error(value.mark, kindPath, "custom auth needs both scheme and token")
                return nil
            }
            guard let scheme = reader.string(schemeNode, kindPath + ".scheme"),
                let token = reader.template(tokenNode, kindPath + ".token")
            else { return nil }
            check(token, kindPath + ".token", scope, allowArrays: false)
            return .custom(scheme: scheme, token: token)
        }
    }

    /// How to write a template whose braces are text, as a compact GraphQL query's are: the
    /// template with every brace but the declared params' references doubled, when it is short.
    static func braceHint(_ template: Template, declared: Set<String>) -> String {
        guard template.hasLiteralBraces else { return "" }
        let escaped = template.writtenWithTextBraces(keeping: declared)
        guard escaped.count <= 120 else { return "; a brace that is text is written twice: {{ and }}" }
        return "; a brace that is text is written twice: \"\(escaped)\""
    }

    /// Reports references to params the target does not declare.
    mutating func check(_ template: Template, _ path: @autoclosure () -> String, _ scope: ParamScope, allowArrays: Bool)
    {
        if template.hasLiteralBraces {
            for param in scope.params where template.writesLiterally(param.name) { literalParams.insert(param.name) }
        }
        for name in template.params {
            usedParams.insert(name)
            guard let param = scope.params.first(where: { $0.name == name }) else {
                let names = scope.params.map(\.name)
                let declared =
                    names.isEmpty ? "the target declares no params" : "declared: \(names.joined(separator: ", "))"
                reader.error(
                    template.mark, path(),
                    "{\(name)} names no declared param (\(declared))" + Suggestion.hint(for: name, in: names)
                        + Self.braceHint(template, declared: Set(names)))
                continue
            }
            if !allowArrays, param.type.isArray {
                reader.error(
                    template.mark, path(), "{\(name)} is a repeatable param of type \(param.type) and cannot stand here"
                )
            }
        }
    }
}

/// The params a target's templates may name.
struct ParamScope {
    var params: [ParamSpec]
}

/// Spec files that may read no set environment variable, and why (`SpecCompiler.refusesEnvironment`).
public struct EnvironmentRefusal: Sendable {
    /// The folder whose spec files it covers, as the search path names it.
    public var folder: String
    /// The reason, with what to do, worked out the first time a spec reads a set variable:
    /// deciding may read and hash every spec file of the folder (`moya-cli trust`), which a
    /// spec that reads no variable never needs. Nil when the folder may read them after all.
    private let decide: Decision

    /// The spec being compiled, whole, when it is one of the folder's: deciding digests it
    /// from these bytes instead of reading the file again.
    private var reading: (file: String, bytes: [UInt8])?

    /// `reason` is asked at most once, with the spec whose variable asked, when it is known.
    public init(folder: String, reason: @escaping @Sendable (_ reading: (file: String, bytes: [UInt8])?) -> String?) {
        self.folder = folder
        decide = Decision(reason)
    }

    /// Why the covered specs may not read a set variable; nil when they may.
    public var reason: String? { decide.value(reading) }

    /// The refusal for compiling `file`, whose bytes are `bytes`.
    func reading(_ file: String, _ bytes: [UInt8]) -> EnvironmentRefusal {
        var copy = self
        copy.reading = (file, bytes)
        return copy
    }

    /// Whether `file` is one of the folder's.
    package func covers(_ file: String) -> Bool {
        file == folder || file.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    /// A reason decided once, on first use.
    private final class Decision: Sendable {
        private let make: @Sendable ((file: String, bytes: [UInt8])?) -> String?
        private let made = Mutex<String??>(nil)

        init(_ make: @escaping @Sendable ((file: String, bytes: [UInt8])?) -> String?) {
            self.make = make
        }

        func value(_ reading: (file: String, bytes: [UInt8])?) -> String? {
            made.withLock { made in
                if let done = made { return done }
                let value = make(reading)
                made = .some(value)
                return value
            }
        }
    }
}
