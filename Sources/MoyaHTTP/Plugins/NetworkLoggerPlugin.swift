import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Logs requests and responses: method and URL, headers, bodies and a runnable cURL command,
/// as the log options choose, with secrets redacted.
public final class NetworkLoggerPlugin: PluginType {
    /// What is logged.
    public struct LogOptions: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// The request's method and URL.
        public static let requestMethod = LogOptions(rawValue: 1 << 0)
        /// The request's headers.
        public static let requestHeaders = LogOptions(rawValue: 1 << 1)
        /// The request's body.
        public static let requestBody = LogOptions(rawValue: 1 << 2)
        /// The request as a cURL command.
        public static let formatRequestAscURL = LogOptions(rawValue: 1 << 3)
        /// The body of a successful response.
        public static let successResponseBody = LogOptions(rawValue: 1 << 4)
        /// The body of a failed response.
        public static let errorResponseBody = LogOptions(rawValue: 1 << 5)

        /// Method, URL and headers.
        public static let `default`: LogOptions = [.requestMethod, .requestHeaders]
        /// Everything but the cURL command.
        public static let verbose: LogOptions = [
            .requestMethod, .requestHeaders, .requestBody, .successResponseBody, .errorResponseBody,
        ]
    }

    /// How the plugin logs.
    public struct Configuration: Sendable {
        /// Where each log entry goes.
        public var output: @Sendable (String) -> Void
        /// What is logged.
        public var logOptions: LogOptions
        /// What is hidden.
        public var redactor: Redactor
        /// The header fields a request goes out with, in the order sent, when it goes out
        /// (`Session.wireHeaders(for:)`): the log shows those the transport adds (`Host`,
        /// `Accept-Encoding`, `Content-Length`, the cookie jar's `Cookie`) beside the request's
        /// own. Nil logs the request's own alone, as for a stub.
        public var wireHeaders: (@Sendable (Request) -> HTTPHeaders)?

        /// Creates a configuration; entries go to standard output unless `output` says otherwise.
        public init(
            output: @escaping @Sendable (String) -> Void = { print($0) }, logOptions: LogOptions = .default,
            redactor: Redactor = Redactor(), wireHeaders: (@Sendable (Request) -> HTTPHeaders)? = nil
        ) {
            self.output = output
            self.logOptions = logOptions
            self.redactor = redactor
            self.wireHeaders = wireHeaders
        }
    }

    /// The configuration.
    public let configuration: Configuration
    private let started = Mutex<ContinuousClock.Instant?>(nil)

    /// Creates the plugin.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    public func willSend(_ request: Request, target: any TargetType) {
        started.withLock { $0 = .now }
        let options = configuration.logOptions
        let shown = configuration.redactor.printable(request)
        var lines: [String] = []
        if options.contains(.requestMethod) {
            lines.append("Request: \(shown.method.rawValue) \(shown.url)")
        }
        if options.contains(.requestHeaders) {
            for field in wire(shown.headers, of: request) { lines.append("  \(field.name): \(field.value)") }
        }
        if options.contains(.requestBody), let body = Self.describe(shown.body) {
            lines.append("Request body: \(body)")
        }
        if options.contains(.formatRequestAscURL) {
            lines.append(CURLCommand(shown).text)
        }
        if !lines.isEmpty { configuration.output(lines.joined(separator: "\n")) }
    }

    public func didReceive(_ result: Result<Response, MoyaError>, target: any TargetType) {
        let elapsed = started.withLock { $0.map { ContinuousClock.now - $0 } }
        let milliseconds = elapsed.map {
            Int(($0.components.seconds * 1000) + $0.components.attoseconds / 1_000_000_000_000_000)
        }
        let time = milliseconds.map { ", \($0) ms" } ?? ""
        let options = configuration.logOptions
        // The exchange's own credentials (the cookies the server set, say) are secrets too.
        let answered: Response? =
            switch result {
            case .success(let response): response
            case .failure(let error): error.response
            }
        let redactor = answered.map(configuration.redactor.exchanged) ?? configuration.redactor
        switch result {
        case .success(let response):
            let size = response.streamedByteCount ?? response.data.count
            var lines = redirectLines(response.response, redactor)
            lines.append("Response: \(response.statusCode) (\(size) bytes\(time))")
            if options.contains(.requestHeaders) {
                for field in response.headers {
                    lines.append("  \(field.name): \(redactor.header(name: field.name, value: field.value))")
                }
            }
            if options.contains(.successResponseBody),
                let body = Self.describe(response.data, redactor: redactor)
            {
                lines.append("Response body: \(body)")
            }
            configuration.output(lines.joined(separator: "\n"))
        case .failure(let error):
            var lines = redirectLines(error.response?.response, redactor)
            lines.append("Error: \(redactor.scrub(error.errorDescription))\(time)")
            if options.contains(.errorResponseBody), let response = error.response,
                let body = Self.describe(response.data, redactor: redactor)
            {
                lines.append("Response: \(response.statusCode)")
                lines.append("Response body: \(body)")
            }
            configuration.output(lines.joined(separator: "\n"))
        }
    }

    /// The header fields `request` goes out with, as they may be printed: each of its own as
    /// `shown` (its printable form) has it, and each the transport adds as the redactor
    /// prints a header, in the order sent.
    func wire(_ shown: [(name: String, value: String)], of request: Request) -> [(name: String, value: String)] {
        guard let sent = configuration.wireHeaders?(request) else { return shown }
        return configuration.redactor.wire(shown, sent: sent)
    }

    /// Each redirect followed: its status and headers, then the request that followed it with
    /// the headers it went out with, as `curl -L -v` shows every hop. URLs and header values
    /// are scrubbed of secrets.
    func redirectLines(_ head: ResponseHead?, _ redactor: Redactor) -> [String] {
        guard let head, configuration.logOptions.contains(.requestMethod) else { return [] }
        var lines: [String] = []
        for hop in head.redirects {
            lines.append("Response: \(hop.head.statusCode) (redirect)")
            if configuration.logOptions.contains(.requestHeaders) {
                for field in hop.head.headers {
                    lines.append("  \(field.name): \(redactor.header(name: field.name, value: field.value))")
                }
            }
            lines.append("Request: \(hop.nextMethod.rawValue) \(redactor.scrub(hop.nextURL.absoluteString))")
            if configuration.logOptions.contains(.requestHeaders) {
                for field in hop.nextHeaders {
                    lines.append("  \(field.name): \(redactor.header(name: field.name, value: field.value))")
                }
            }
        }
        return lines
    }

    /// A request body as the log shows it.
    static func describe(_ body: PrintableRequest.Body?) -> String? {
        switch body {
        case nil: nil
        case .text(let text)?: text.isEmpty ? nil : text
        case .binary(let count, _)?: "<\(count) bytes of binary data>"
        case .file(let path)?: "<file \(path)>"
        }
    }

    /// A response body as the log shows it, scrubbed of echoed secrets.
    static func describe(_ data: Data, redactor: Redactor) -> String? {
        guard !data.isEmpty else { return nil }
        if redactor.isEnabled, redactor.hidesResponseBody {
            return "<\(data.count) bytes, not shown: a secret is taken from it>"
        }
        guard let text = String(validating: data, as: UTF8.self) else { return "<\(data.count) bytes of binary data>" }
        return redactor.scrub(text)
    }
}

/// A request as a curl command line that sends the same thing.
public struct CURLCommand: Sendable {
    /// The request, as it may be printed.
    public var request: PrintableRequest

    /// Creates the command for a request, printed as `redactor` allows.
    public init(request: Request, redactor: Redactor = Redactor()) {
        self.request = redactor.printable(request)
    }

    /// Creates the command for a request already made printable.
    public init(_ request: PrintableRequest) {
        self.request = request
    }

    /// The command, each part quoted for a POSIX shell.
    public var text: String {
        var parts = ["curl"]
        if request.method != .get || request.body != nil {
            parts += ["-X", request.method.rawValue]
        }
        for (index, field) in request.headers.enumerated() {
            parts += ["-H", request.shellWords[index] ?? Self.quote("\(field.name): \(field.value)")]
        }
        switch request.body {
        case .text(let text)?: parts += ["--data-binary", Self.quote(text)]
        case .binary?: parts += ["--data-binary", "@-"]
        case .file(let path)?: parts += ["--data-binary", Self.quote("@" + path)]
        case nil: break
        }
        parts.append(Self.quote(request.url))
        return parts.joined(separator: " ")
    }

    /// `'text'`, with single quotes inside closed, escaped and reopened.
    static func quote(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }
}
