import MoyaHTTP
import MoyaYAML

/// One service, as compiled from one spec file.
public struct ServiceSpec: Sendable {
    /// The service's name, used as `SERVICE` in `SERVICE.TARGET`.
    public var name: String
    /// The spec file it came from, as named to moya-cli.
    public var file: String
    /// Where the name was set: the `service` key, or the top of the file.
    public var nameMark: Mark
    /// The base URL, environment variables resolved.
    public var baseURL: String
    /// Headers sent by every target.
    public var headers: [HeaderSpec]
    /// The validation every target uses unless it sets its own.
    public var validation: ValidationType
    /// The timeout in seconds, if set.
    public var timeout: Double?
    /// How many times a failed request is retried, if set.
    public var retry: Int?
    /// Whether redirects are followed (`followRedirects`), if set.
    public var followsRedirects: Bool?
    /// The default stub behaviour, if set.
    public var stub: StubBehavior?
    /// Credentials for every target unless it sets its own.
    public var auth: AuthSpec?
    /// Named overrides chosen with `--env`.
    public var environments: [EnvironmentSpec]
    /// The targets in declared order.
    public var targets: [TargetSpec]
    /// The flows in declared order.
    public var flows: [FlowSpec] = []
    /// What its MCP tools' names start with (`mcp: { prefix: NAME }`); nil for the default,
    /// the service's name, shortened when a name would be too long.
    public var mcpPrefix: String? = nil
    /// The longest `mcp.prefix`.
    public static let mcpPrefixLimit = 32
    /// Values that came from the environment, to be redacted wherever they would print.
    public var environmentSecrets: SecretSet
    /// Values of variables the environment did not set, bound after compiling
    /// (`binding(_:)`), by name: a secret store's.
    public internal(set) var boundVariables: [String: String] = [:]
    /// The base URL as written, its `${VAR}` references kept apart from the text
    /// (`binding(_:)` writes a late value into it); else `baseURL` as literal text.
    public var baseURLSource = Template(literal: "")
    /// What `validate` warns about: likely mistakes that still compile.
    public var warnings: [Diagnostic] = []
    /// The `${VAR}`s the environment does not set, with no default.
    public var unsetVariables: [UnsetVariable] = []
    /// Where each `${NAME}` comes from when the environment does not set it: the spec's own
    /// `secrets:` over the user's `secrets.yaml`. Read only when a call that needs it is sent.
    public var secretSources: [String: SecretSource] = [:]
    /// The folder `--file-root` named when the spec was compiled; nil for the spec's own.
    public var givenFileRoot: String?

    /// Where every file this spec names must be (see `FileRoot`).
    public var fileRoot: FileRoot {
        FileRoot(spec: file, given: givenFileRoot)
    }

    /// The target called `name`.
    public func target(named name: String) -> TargetSpec? {
        targets.first { $0.name == name }
    }

    /// The environment called `name`.
    public func environment(named name: String) -> EnvironmentSpec? {
        environments.first { $0.name == name }
    }

    /// A path this spec gives (a `file:` sample or body, an upload or download path, a file
    /// param's value in a check), relative to the spec file; an absolute one as it is.
    public func path(_ path: String) -> String {
        Self.path(path, inSpec: file)
    }

    /// A path written in the spec file `file`: relative to that file's folder, so that a spec
    /// works from any working directory.
    public static func path(_ path: String, inSpec file: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        guard let slash = file.lastIndex(of: "/") else { return "./" + path }
        return file[..<slash] + "/" + path
    }

    /// Every stored property, as the memberwise initializer takes them, for the compiler's module.
    package init(
        name: String, file: String, nameMark: Mark, baseURL: String, headers: [HeaderSpec], validation: ValidationType,
        timeout: Double? = nil, retry: Int? = nil, followsRedirects: Bool? = nil, stub: StubBehavior? = nil,
        auth: AuthSpec? = nil, environments: [EnvironmentSpec], targets: [TargetSpec], flows: [FlowSpec] = [],
        mcpPrefix: String? = nil, environmentSecrets: SecretSet, boundVariables: [String: String] = [:],
        baseURLSource: Template = Template(literal: ""), warnings: [Diagnostic] = [],
        unsetVariables: [UnsetVariable] = [], secretSources: [String: SecretSource] = [:], givenFileRoot: String? = nil
    ) {
        self.name = name
        self.file = file
        self.nameMark = nameMark
        self.baseURL = baseURL
        self.headers = headers
        self.validation = validation
        self.timeout = timeout
        self.retry = retry
        self.followsRedirects = followsRedirects
        self.stub = stub
        self.auth = auth
        self.environments = environments
        self.targets = targets
        self.flows = flows
        self.mcpPrefix = mcpPrefix
        self.environmentSecrets = environmentSecrets
        self.boundVariables = boundVariables
        self.baseURLSource = baseURLSource
        self.warnings = warnings
        self.unsetVariables = unsetVariables
        self.secretSources = secretSources
        self.givenFileRoot = givenFileRoot
    }
}

/// An environment's overrides of a service's base URL and headers.
public struct EnvironmentSpec: Sendable {
    /// The name given to `--env`.
    public var name: String
    /// The base URL in this environment, if it differs.
    public var baseURL: String?
    /// Headers added in this environment; they win over the service's.
    public var headers: [HeaderSpec]
    /// The base URL as written, `${VAR}` references kept, when it reads one.
    public var baseURLSource: Template? = nil

    /// Every stored property, as the memberwise initializer takes them, for the compiler's module.
    package init(name: String, baseURL: String? = nil, headers: [HeaderSpec], baseURLSource: Template? = nil) {
        self.name = name
        self.baseURL = baseURL
        self.headers = headers
        self.baseURLSource = baseURLSource
    }
}

/// One target of a service: one request, declared.
public struct TargetSpec: Sendable {
    /// The target's name, used as `TARGET` in `SERVICE.TARGET`.
    public var name: String
    /// A one-line summary for `list`, `describe` and help.
    public var summary: String?
    /// What the target does, at more length, for `describe`.
    public var description: String? = nil
    /// The declared params in order.
    public var params: [ParamSpec]
    /// The path, appended to the base URL.
    public var path: Template
    /// The HTTP method.
    public var method: Method
    /// The target's own headers; they win over the service's.
    public var headers: [HeaderSpec]
    /// The cookies the target sends, as OpenAPI's cookie params are: one `Cookie` header of
    /// `name=value` pairs, a pair whose whole value is an absent optional param left out.
    public var cookies: [HeaderSpec] = []
    /// How parameters and body are sent.
    public var task: TaskSpec
    /// The default sample, if declared.
    public var sample: SampleSpec?
    /// Named samples, chosen with `--sample`.
    public var samples: [(name: String, sample: SampleSpec)]
    /// The target's validation, if it overrides the service's.
    public var validation: ValidationType?
    /// The target's credentials, if it overrides the service's.
    public var auth: AuthSpec?
    /// The target's timeout in seconds, if it overrides the service's.
    public var timeout: Double?
    /// The target's retry count, if it overrides the service's.
    public var retry: Int?
    /// Whether the target's redirects are followed, if it overrides the service's.
    public var followsRedirects: Bool? = nil
    /// Where the target was declared.
    public var mark: Mark
    /// The checks `moya-cli check` runs, in spec order.
    public var checks: [CheckSpec] = []
    /// The schema of the target's responses (`schema:`, or its default sample's).
    public var schema: SchemaSpec? = nil
    /// The schemas named samples give their bodies, by sample name.
    public var sampleSchemas: [String: SchemaSpec] = [:]
    /// The schema of the target's JSON request bodies (`requestSchema:`), which `serve` holds
    /// requests to.
    public var requestSchema: SchemaSpec? = nil
    /// Whether a request must carry a body (`bodyRequired:`, OpenAPI's `requestBody.required`),
    /// which `serve` holds requests to; nil when the body's params say: a body is required when
    /// one of them is. A call always sends its task's body.
    public var bodyRequired: Bool? = nil
    /// `mcp: false` keeps the target out of `moya-cli mcp`'s tools, whatever its flags.
    public var mcpExposed = true
    /// The target's own base URL (OpenAPI's operation `servers`), which wins over the
    /// service's and an environment's; nil for the service's.
    public var baseURL: String? = nil
    /// The base URL as written, `${VAR}` references kept, when it reads one.
    public var baseURLSource: Template? = nil
    /// How its responses come in pages (`paginate:`); nil when they do not.
    public var pagination: PaginationSpec? = nil
    /// How its response is read as a stream of events (`stream:`); nil when it is not
    /// declared, and a response's `Content-Type` alone says.
    public var stream: StreamSpec? = nil

    /// The schema a response answered from `sample` (nil: the default) must match: the
    /// named sample's own, else the target's.
    public func schema(forSample sample: String?) -> SchemaSpec? {
        sample.flatMap { sampleSchemas[$0] } ?? schema
    }

    /// The schema a sample's body must meet, as `validate` and `serve` hold it: its own,
    /// else the target's, for the default sample and for a named one that answers with the
    /// default sample's status (another example of the same response).
    public func contract(forSample name: String?) -> SchemaSpec? {
        guard let name else { return schema }
        if let own = sampleSchemas[name] { return own }
        guard let named = sample(named: name), named.status != nil, named.status == (sample?.status ?? 200) else {
            return nil
        }
        return schema
    }

    /// The param called `name`.
    public func param(named name: String) -> ParamSpec? {
        params.first { $0.name == name }
    }

    /// The named sample called `name`.
    public func sample(named name: String) -> SampleSpec? {
        samples.first { $0.name == name }?.sample
    }

    /// Every stored property, as the memberwise initializer takes them, for the compiler's module.
    package init(
        name: String, summary: String? = nil, description: String? = nil, params: [ParamSpec], path: Template,
        method: Method, headers: [HeaderSpec], cookies: [HeaderSpec] = [], task: TaskSpec, sample: SampleSpec? = nil,
        samples: [(name: String, sample: SampleSpec)], validation: ValidationType? = nil, auth: AuthSpec? = nil,
        timeout: Double? = nil, retry: Int? = nil, followsRedirects: Bool? = nil, mark: Mark, checks: [CheckSpec] = [],
        schema: SchemaSpec? = nil, sampleSchemas: [String: SchemaSpec] = [:], requestSchema: SchemaSpec? = nil,
        bodyRequired: Bool? = nil, mcpExposed: Bool = true, baseURL: String? = nil, baseURLSource: Template? = nil,
        pagination: PaginationSpec? = nil
    ) {
        self.name = name
        self.summary = summary
        self.description = description
        self.params = params
        self.path = path
        self.method = method
        self.headers = headers
        self.cookies = cookies
        self.task = task
        self.sample = sample
        self.samples = samples
        self.validation = validation
        self.auth = auth
        self.timeout = timeout
        self.retry = retry
        self.followsRedirects = followsRedirects
        self.mark = mark
        self.checks = checks
        self.schema = schema
        self.sampleSchemas = sampleSchemas
        self.requestSchema = requestSchema
        self.bodyRequired = bodyRequired
        self.mcpExposed = mcpExposed
        self.baseURL = baseURL
        self.baseURLSource = baseURLSource
        self.pagination = pagination
    }
}

extension TargetSpec {
    /// A target with nothing in it, for templates outside any target.
    public static var none: TargetSpec {
        TargetSpec(
            name: "", summary: nil, params: [], path: Template(""), method: .get, headers: [], task: .plain,
            sample: nil, samples: [], validation: nil, auth: nil, timeout: nil, retry: nil,
            mark: Mark(line: 0, column: 0))
    }
}

extension ServiceSpec {
    /// The headers `target` sends as written, before an environment's: the service's, each
    /// one the target names again (in any case) giving way to the target's.
    public func headers(of target: TargetSpec) -> [HeaderSpec] {
        headers.filter { header in
            !target.headers.contains { $0.name.lowercased() == header.name.lowercased() }
        } + target.headers
    }
}
