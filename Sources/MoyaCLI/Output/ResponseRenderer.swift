import MoyaHTTP
import MoyaSpec
import MoyaTransport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Turns a response into the bytes `call` prints: on a terminal, JSON bodies pretty-printed and
/// coloured; piped or redirected, the body byte for byte; with `-i`, the status line and headers
/// first.
struct ResponseRenderer {
    /// Whether JSON bodies are re-indented.
    var pretty: Bool
    /// Whether ANSI colours are used; only pretty output is coloured.
    var colored: Bool
    /// Whether the status line and headers are printed before the body.
    var include: Bool

    /// The renderer `options` ask for in `context`: pretty and coloured on a terminal unless
    /// overridden; `NO_COLOR` (set and not empty) or `TERM=dumb` turns colour off in auto mode.
    init(options: OutputOptions, context: CommandContext) {
        pretty = options.raw ? false : (options.pretty || options.color == .always || context.outputIsTerminal)
        colored =
            pretty && options.color.colors(terminal: context.outputIsTerminal, environment: context.environment)
        include = options.include
    }

    init(pretty: Bool, colored: Bool, include: Bool) {
        self.pretty = pretty
        self.colored = colored
        self.include = include
    }

    /// The status line and headers, and the blank line after them.
    func head(of response: Response) -> [UInt8] {
        head(of: response.response ?? ResponseHead(statusCode: response.statusCode))
    }

    /// The status line and headers of each redirect followed, then of `head`, each followed
    /// by a blank line, as `curl -L -i` prints them.
    func head(of head: ResponseHead) -> [UInt8] {
        head.redirects.flatMap { single($0.head) } + single(head)
    }

    private func single(_ head: ResponseHead) -> [UInt8] {
        var text = "\(head.version) \(head.statusCode)"
        if !head.reasonPhrase.isEmpty { text += " \(head.reasonPhrase)" }
        text = paint(text, "\u{1B}[1m") + "\n"
        for field in head.headers {
            text += paint(field.name, "\u{1B}[36m") + ": " + field.value + "\n"
        }
        return Array((text + "\n").utf8)
    }

    /// The body as printed: JSON re-indented when pretty, anything else as received.
    func body(_ data: Data, headers: HTTPHeaders) -> [UInt8] {
        let bytes = Array(data)
        guard pretty, Self.looksLikeJSON(bytes, contentType: headers["Content-Type"]),
            (try? JSONValue(parsing: data)) != nil
        else { return bytes }
        return JSONFormatter.format(bytes, colored: colored)
    }

    /// Everything printed for a response: the head with `-i`, then the body.
    func render(_ response: Response) -> [UInt8] {
        (include ? head(of: response) : []) + body(response.data, headers: response.headers)
    }

    private func paint(_ text: String, _ style: String) -> String {
        TerminalText.painted(text, style, colored: colored)
    }

    /// JSON by its content type (`application/json`, `…+json`), or, without one, by its
    /// first non-space byte.
    static func looksLikeJSON(_ bytes: [UInt8], contentType: String?) -> Bool {
        if let contentType { return JSONValue.isJSONMediaType(contentType) }
        let first = bytes.first { !JSONFormatter.isSpace($0) }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }
}

/// When `call` and `check` colour their output.
enum ColorChoice: String, CaseIterable, Sendable {
    case auto, always, never

    /// Whether output to a stream is coloured: `always`, `never`, or in `auto` on a terminal
    /// unless `NO_COLOR` is set and not empty or `TERM` is `dumb`.
    func colors(terminal: Bool, environment: Environment) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
            return terminal && !noColor && environment["TERM"] != "dumb"
        }
    }
}
