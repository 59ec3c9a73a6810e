import MoyaHTTP
import MoyaJSONPath
import MoyaRegex
import MoyaYAML

/// A flow: named steps that call targets in order, passing captured values along, with steps
/// that always run at the end.
public struct FlowSpec: Sendable {
    /// The flow's name, unique within its service.
    public var name: String
    /// One line on what it does.
    public var summary: String?
    /// The starting variables, in order; `--var` and `--vars` override them.
    public var variables: [(name: String, value: FlowValue)]
    /// The steps, in order.
    public var steps: [FlowStep]
    /// Steps that run after the others, also after a failure or an interrupt.
    public var finally: [FlowStep]
    /// Where the flow is declared.
    public var mark: Mark
    /// `mcp: false` keeps the flow out of `moya-cli mcp`'s tools, whatever its flags.
    public var mcpExposed = true

    /// Creates a flow.
    public init(
        name: String, summary: String? = nil, variables: [(name: String, value: FlowValue)] = [],
        steps: [FlowStep], finally: [FlowStep] = [], mark: Mark
    ) {
        self.name = name
        self.summary = summary
        self.variables = variables
        self.steps = steps
        self.finally = finally
        self.mark = mark
    }
}

/// One step of a flow: a target called with params, what its response must satisfy, and the
/// values it captures.
public struct FlowStep: Sendable {
    /// The step's name: its `name:`, else its target's.
    public var name: String
    /// The service whose target it calls, nil for the flow's own.
    public var service: String?
    /// The target's name.
    public var target: String
    /// Param values, each of which may use variables, in spec order.
    public var arguments: [(name: String, value: FlowValue)]
    /// The named sample to answer with when stubbed.
    public var sample: String?
    /// What the response must satisfy; expected values may use variables.
    public var assertions: [Assertion]
    /// Values taken from the response into variables, in order.
    public var captures: [CaptureSpec]
    /// With `retry`, the step is sent again until these hold.
    public var until: [Assertion]
    /// How often and how long `until` polls.
    public var retry: PollSpec?
    /// The rows the step runs once for, as `item`.
    public var each: FlowValue?
    /// When this holds, the step is skipped.
    public var skip: FlowCondition?
    /// Where the step is declared.
    public var mark: Mark
    /// The pages it reads, for a paginated target; nil reads the response as it is.
    public var pages: PageCount? = nil

    /// The target as a flow line names it: `target` or `service.target`.
    public var targetReference: String { service.map { "\($0).\(target)" } ?? target }

    /// Every stored property, as the memberwise initializer takes them, for the compiler's module.
    package init(
        name: String, service: String? = nil, target: String, arguments: [(name: String, value: FlowValue)],
        sample: String? = nil, assertions: [Assertion], captures: [CaptureSpec], until: [Assertion],
        retry: PollSpec? = nil, each: FlowValue? = nil, skip: FlowCondition? = nil, mark: Mark, pages: PageCount? = nil
    ) {
        self.name = name
        self.service = service
        self.target = target
        self.arguments = arguments
        self.sample = sample
        self.assertions = assertions
        self.captures = captures
        self.until = until
        self.retry = retry
        self.each = each
        self.skip = skip
        self.mark = mark
        self.pages = pages
    }
}

/// Where a captured value comes from.
public struct CaptureSpec: Sendable {
    /// The part of the response read.
    public enum Source: Sendable, Hashable {
        /// The values a JSON path reaches, keeping their JSON types; an array when the path can
        /// reach more than one.
        case json(JSONPath)
        /// A response header, as text.
        case header(String)
        /// The status code, as an integer.
        case status
        /// The body, as text.
        case body
        /// The value of a cookie the response sets.
        case cookie(String)
        /// How long the request took, in whole milliseconds.
        case duration
    }

    /// The variable it sets.
    public var name: String
    /// What it reads.
    public var source: Source
    /// A regular expression applied to the text read; its first group, else its whole match, is
    /// the value.
    public var pattern: RegularExpression?
    /// Whether the value is a secret, redacted wherever it is printed.
    public var isSecret: Bool
    /// Whether finding nothing leaves the variable unset instead of failing the step.
    public var isOptional: Bool
    /// Where it is declared.
    public var mark: Mark

    /// Every stored property, as the memberwise initializer takes them, for the compiler's module.
    package init(
        name: String, source: Source, pattern: RegularExpression? = nil, isSecret: Bool, isOptional: Bool, mark: Mark
    ) {
        self.name = name
        self.source = source
        self.pattern = pattern
        self.isSecret = isSecret
        self.isOptional = isOptional
        self.mark = mark
    }
}

/// How a step with `until` is polled.
public struct PollSpec: Sendable, Hashable {
    /// Seconds between attempts.
    public var interval: Double
    /// The most seconds to keep polling, if limited by time.
    public var timeLimit: Double?
    /// The most attempts, if limited by count.
    public var attempts: Int?

    /// Every stored property, as the memberwise initializer takes them, for the compiler's module.
    package init(interval: Double, timeLimit: Double? = nil, attempts: Int? = nil) {
        self.interval = interval
        self.timeLimit = timeLimit
        self.attempts = attempts
    }
}

/// A value in a flow that may use variables: a literal, a template, or a sequence or mapping
/// of them.
public indirect enum FlowValue: Sendable, Hashable {
    /// A value with no variables.
    case value(JSONValue)
    /// Text with `{variable}` references.
    case template(VariableTemplate)
    /// A sequence.
    case array([FlowValue])
    /// A mapping, in order.
    case object([Member])

    /// One member of a mapping.
    public struct Member: Sendable, Hashable {
        /// The key.
        public var key: String
        /// The value.
        public var value: FlowValue

        /// Every stored property, as the memberwise initializer takes them, for the compiler's module.
        package init(key: String, value: FlowValue) {
            self.key = key
            self.value = value
        }
    }

    /// Every variable reference inside, in order.
    public var references: [VariableTemplate.Reference] {
        switch self {
        case .value: []
        case .template(let template): template.references
        case .array(let items): items.flatMap(\.references)
        case .object(let members): members.flatMap(\.value.references)
        }
    }
}
