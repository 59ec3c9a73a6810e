import MoyaHTTP
import MoyaSpec
import MoyaYAML

/// A live response made into a sample, as `--record` writes it into a spec: its status, the
/// headers chosen to keep, and its body, already free of secrets.
public struct RecordedSample: Sendable, Hashable {
    /// How the body is written.
    public enum Body: Sendable, Hashable {
        /// No body.
        case empty
        /// JSON that the stub serializes back to the very bytes that came: `json:`.
        case json(JSONValue)
        /// Text, written as it came: `body:`.
        case text(String)
        /// A file beside the spec holding the bytes, the path as the spec writes it: `file:`.
        case file(String)
        /// A stream's events, each with the time before it: `events:`.
        case events([Event])
    }

    /// One event of a recorded stream, as a stream sample writes it.
    public struct Event: Sendable, Hashable {
        public var event: String?
        public var id: String?
        public var data: String
        public var retry: Int?
        /// The seconds since the event before, or since the stream opened.
        public var delay: Double

        public init(event: String?, id: String?, data: String, retry: Int?, delay: Double) {
            self.event = event
            self.id = id
            self.data = data
            self.retry = retry
            self.delay = delay
        }

        /// The event as the stream sample's `- { … }` line writes it: each text read back as it
        /// is, the delay in whole milliseconds (at most the hour a sample's delay may be).
        var line: String {
            let text = { (text: String) in YAMLText.scalar(RecordedSample.literal(text), inFlow: true) }
            var fields: [String] = []
            if let event { fields.append("event: " + text(event)) }
            if let id { fields.append("id: " + text(id)) }
            fields.append("data: " + text(data))
            if let retry { fields.append("retry: \(retry)") }
            let milliseconds = Int((min(max(delay, 0), 3600) * 1000).rounded())
            if milliseconds > 0 { fields.append("delay: \(milliseconds)ms") }
            return "- { " + fields.joined(separator: ", ") + " }"
        }
    }

    /// The status.
    public var status: Int
    /// The headers, in the order written.
    public var headers: HTTPHeaders
    /// The body.
    public var body: Body

    /// A sample to write.
    public init(status: Int, headers: HTTPHeaders, body: Body) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The sample's keys, each written at `indent`, in the order `status`, `headers`, then the
    /// body's: every value reads back as written, with no `{param}` or `${VAR}` in it.
    func lines(indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        var lines = ["\(pad)status: \(status)"]
        if !headers.fields.isEmpty {
            lines.append("\(pad)headers:")
            for header in headers {
                lines.append(
                    "\(pad)  \(YAMLText.key(header.name)): \(YAMLText.scalar(Self.literal(header.value), inFlow: false))"
                )
            }
        }
        switch body {
        case .empty:
            break
        case .json(let value):
            lines += YAMLText.block("json", value, indent: indent)
        case .text(let text):
            lines += Self.textLines("body", Self.literal(text), indent: indent)
        case .file(let path):
            lines.append("\(pad)file: \(YAMLText.scalar(path, inFlow: false))")
        case .events(let events):
            lines.append("\(pad)events:")
            lines += events.map { "\(pad)  " + $0.line }
        }
        return lines
    }

    /// Text a sample reads as it is: braces doubled where the text would otherwise hold a
    /// `{param}` reference or a doubled brace. `${` is left to the writer of the scalar.
    static func literal(_ text: String) -> String {
        let template = Template(text)
        if template.segments.isEmpty || template.segments == [.literal(text)] { return text }
        return YAMLText.template(text)
    }

    /// `name: text` where the text is plain, else a literal block scalar, which keeps JSON
    /// and lines readable as they came; text a block cannot hold exactly (a carriage return,
    /// a control character, a first line that starts with a space, a line with trailing
    /// space, no text but line breaks, two or more line breaks at the end) is one
    /// double-quoted scalar.
    static func textLines(_ name: String, _ text: String, indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        let literal = YAMLText.literal(text)
        guard !YAMLText.isPlain(text, inFlow: false), fitsBlock(text) else {
            return ["\(pad)\(name): \(YAMLText.scalar(text, inFlow: false))"]
        }
        // At most one line break ends the text (`fitsBlock`): clipped, or stripped with `|-`.
        let endsWithBreak = literal.hasSuffix("\n")
        let body = endsWithBreak ? Substring(literal).dropLast() : Substring(literal)
        let content = body.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.isEmpty ? "" : "\(pad)  \(line)"
        }
        return ["\(pad)\(name): |\(endsWithBreak ? "" : "-")"] + content
    }

    /// Whether a literal block holds `text` exactly.
    private static func fitsBlock(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first != " ", first != "\t", first != "\n" else { return false }
        // Blank lines at a block's end are kept only with `|+`, which also takes in every blank
        // line the spec has after it, before the next key: the body would not read back.
        guard !text.hasSuffix("\n\n") else { return false }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        // A line of only spaces or trailing space reads back the same, but editors strip it.
        guard lines.allSatisfy({ $0.last != " " && $0.last != "\t" }) else { return false }
        return !text.unicodeScalars.contains { scalar in
            scalar != "\n" && scalar != "\t" && (YAMLText.needsEscape(scalar) || scalar == "\r")
        }
    }
}
