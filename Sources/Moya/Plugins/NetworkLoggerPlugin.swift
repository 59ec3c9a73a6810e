import MoyaCore

/// Logs requests and responses in Moya's lines: `Request: <url>`, `Request Headers: …`,
/// `HTTP Request Method: …`, `Response: …`, `Response Body: …`.
///
/// Unlike Moya's, it prints the values of `Authorization`, `Proxy-Authorization`, `Cookie`
/// and `Set-Cookie` as `••••`, as every moya-cli output does.
public final class NetworkLoggerPlugin {
    /// What is logged, how, and where to.
    public var configuration: Configuration

    /// Creates the plugin.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }
}

extension NetworkLoggerPlugin: PluginType {
    public func willSend(_ request: RequestType, target: TargetType) {
        logNetworkRequest(request, target: target) { [weak self] output in
            self?.configuration.output(target, output)
        }
    }

    public func didReceive(_ result: Result<Moya.Response, MoyaError>, target: TargetType) {
        switch result {
        case .success(let response):
            configuration.output(target, logNetworkResponse(response, target: target, isFromError: false))
        case .failure(let error):
            configuration.output(target, logNetworkError(error, target: target))
        }
    }
}

extension NetworkLoggerPlugin {
    private func logNetworkRequest(_ request: RequestType, target: TargetType, completion: @escaping ([String]) -> Void)
    {
        let formatter = configuration.formatter
        if configuration.logOptions.contains(.formatRequestAscURL) {
            _ = request.cURLDescription { output in
                completion([formatter.entry("Request", output, target)])
            }
            return
        }
        guard let httpRequest = request.request else {
            completion([formatter.entry("Request", "(invalid request)", target)])
            return
        }
        var output = [formatter.entry("Request", httpRequest.description, target)]
        if configuration.logOptions.contains(.requestHeaders) {
            let headers = request.sessionHeaders.merging(httpRequest.allHTTPHeaderFields ?? [:]) { $1 }
            output.append(formatter.entry("Request Headers", Self.masked(headers).description, target))
        }
        if configuration.logOptions.contains(.requestBody) {
            if let stream = httpRequest.httpBodyStream {
                output.append(formatter.entry("Request Body Stream", stream.description, target))
            }
            if let body = httpRequest.httpBody {
                output.append(formatter.entry("Request Body", formatter.requestData(body), target))
            }
        }
        if configuration.logOptions.contains(.requestMethod), let method = httpRequest.httpMethod {
            output.append(formatter.entry("HTTP Request Method", method, target))
        }
        completion(output)
    }

    private func logNetworkResponse(_ response: Response, target: TargetType, isFromError: Bool) -> [String] {
        let formatter = configuration.formatter
        var output: [String] = []
        if let http = response.response {
            output.append(formatter.entry("Response", Self.describe(http), target))
        } else {
            output.append(formatter.entry("Response", "Received empty network response for \(target).", target))
        }
        if (isFromError && configuration.logOptions.contains(.errorResponseBody))
            || configuration.logOptions.contains(.successResponseBody)
        {
            output.append(formatter.entry("Response Body", formatter.responseData(response.data), target))
        }
        return output
    }

    private func logNetworkError(_ error: MoyaError, target: TargetType) -> [String] {
        if let response = error.response {
            return logNetworkResponse(response, target: target, isFromError: true)
        }
        return [configuration.formatter.entry("Error", "Error calling \(target) : \(error)", target)]
    }

    /// Headers as MoyaCore's redactor prints them: credential values masked.
    private static func masked(_ headers: [String: String]) -> [String: String] {
        let redactor = Redactor()
        return headers.reduce(into: [:]) { masked, field in
            masked[field.key] = redactor.header(name: field.key, value: field.value)
        }
    }

    /// An `HTTPURLResponse` as Apple's Foundation describes one, which Moya's log prints.
    private static func describe(_ response: HTTPURLResponse) -> String {
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields { headers["\(name)"] = "\(value)" }
        let url = response.url?.absoluteString ?? "(none)"
        return "<HTTPURLResponse> { URL: \(url) } { Status Code: \(response.statusCode), Headers \(masked(headers)) }"
    }
}

extension NetworkLoggerPlugin {
    /// What the plugin logs, how, and where to.
    public struct Configuration {
        /// Receives the entries for one request or response.
        public typealias OutputType = (_ target: TargetType, _ items: [String]) -> Void

        /// How entries and bodies are written.
        public var formatter: Formatter
        /// Where entries go.
        public var output: OutputType
        /// What is logged.
        public var logOptions: LogOptions

        /// Creates a configuration.
        public init(
            formatter: Formatter = Formatter(), output: @escaping OutputType = defaultOutput,
            logOptions: LogOptions = .default
        ) {
            self.formatter = formatter
            self.output = output
            self.logOptions = logOptions
        }

        /// Prints each entry on its own line.
        public static func defaultOutput(target: TargetType, items: [String]) {
            for item in items {
                print(item, separator: ",", terminator: "\n")
            }
        }
    }
}

extension NetworkLoggerPlugin.Configuration {
    /// What is logged.
    public struct LogOptions: OptionSet {
        public let rawValue: Int

        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// The request's method.
        public static let requestMethod = LogOptions(rawValue: 1 << 0)
        /// The request's body.
        public static let requestBody = LogOptions(rawValue: 1 << 1)
        /// The request's headers.
        public static let requestHeaders = LogOptions(rawValue: 1 << 2)
        /// The request as a cURL command, in place of the other request entries.
        public static let formatRequestAscURL = LogOptions(rawValue: 1 << 3)
        /// The body of a successful response.
        public static let successResponseBody = LogOptions(rawValue: 1 << 4)
        /// The body of a response that came with an error.
        public static let errorResponseBody = LogOptions(rawValue: 1 << 5)

        /// The method and headers.
        public static let `default`: LogOptions = [requestMethod, requestHeaders]
        /// Everything but the cURL command.
        public static let verbose: LogOptions = [
            requestMethod, requestHeaders, requestBody, successResponseBody, errorResponseBody,
        ]
    }
}

extension NetworkLoggerPlugin.Configuration {
    /// How entries and bodies are written.
    public struct Formatter {
        /// Writes a body.
        public typealias DataFormatterType = (Data) -> (String)
        /// Writes one entry.
        public typealias EntryFormatterType = (_ identifier: String, _ message: String, _ target: TargetType) -> String

        /// Writes each entry.
        public var entry: EntryFormatterType
        /// Writes request bodies.
        public var requestData: DataFormatterType
        /// Writes response bodies.
        public var responseData: DataFormatterType

        /// Creates a formatter.
        public init(
            entry: @escaping EntryFormatterType = defaultEntryFormatter,
            requestData: @escaping DataFormatterType = defaultDataFormatter,
            responseData: @escaping DataFormatterType = defaultDataFormatter
        ) {
            self.entry = entry
            self.requestData = requestData
            self.responseData = responseData
        }

        /// UTF-8 text, or a note that the bytes are not text.
        public static func defaultDataFormatter(_ data: Data) -> String {
            String(data: data, encoding: .utf8) ?? "## Cannot map data to String ##"
        }

        /// `Moya_Logger: [date] identifier: message`.
        public static func defaultEntryFormatter(identifier: String, message: String, target: TargetType) -> String {
            let formatter = DateFormatter()
            formatter.timeStyle = .short
            formatter.dateStyle = .short
            return "Moya_Logger: [\(formatter.string(from: Date()))] \(identifier): \(message)"
        }
    }
}

extension NetworkLoggerPlugin {
    /// A logger of methods and headers.
    public class var `default`: NetworkLoggerPlugin {
        NetworkLoggerPlugin(configuration: Configuration(logOptions: .default))
    }

    /// A logger of everything but the cURL command.
    public class var verbose: NetworkLoggerPlugin {
        NetworkLoggerPlugin(configuration: Configuration(logOptions: .verbose))
    }
}
