import MoyaHTTP
import MoyaJSONPath
import MoyaMCPProtocol
import MoyaRuntime
import MoyaSchema
import MoyaSpec

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a tool call gives back to the model: text (the status, the content type and the body,
/// or the one-line failure `call` prints), JSON for `structuredContent` where the tool has an
/// output schema, and what the audit log records. Every secret the call knew of is gone from
/// all of it, in every encoding, including what the server echoed.
public struct ToolOutcome: Sendable {
    /// How the call ended, as the audit log says it.
    public enum Kind: String, Sendable {
        /// Sent, and the status passed the target's validation (a flow: every step passed).
        case ok
        /// Sent, and it failed: a status the target refuses, a transport failure, a failed step.
        case error
        /// Not sent: the arguments broke the input schema.
        case invalid
        /// Not sent: the tool is not exposed, or there is no such tool.
        case refused
    }

    public var kind: Kind
    public var text: String
    public var structured: JSONValue?
    /// The response's status, when there was one.
    public var status: Int?
    /// The body's size as received, before any selection or cut.
    public var bytes: Int
    public var seconds: Double

    public var isError: Bool { kind != .ok }

    /// A call that was not sent.
    static func refused(_ kind: Kind, _ lines: [String]) -> ToolOutcome {
        ToolOutcome(kind: kind, text: lines.joined(separator: "\n"), structured: nil, status: nil, bytes: 0, seconds: 0)
    }

    /// The outcome of a target's exchange. `select` is the JSON path argument; `limit` the
    /// most bytes of text that come back; `outputSchema` the tool's, when it has one: the body
    /// is then `structuredContent` too.
    ///
    /// A client holds `structuredContent` to the output schema, and refuses a result without
    /// it. So a body that is too large for `limit`, or that no longer meets the schema once its
    /// secrets are masked (a PIN echoed as a number), is an error whose text says why.
    static func of(
        _ exchange: Exchange, select: JSONPath?, limit: Int, outputSchema: CompiledSchema?, wrapsResult: Bool = false
    ) -> ToolOutcome {
        let redactor = exchange.redactor
        guard let response = exchange.response, let target = exchange.target else {
            // Arguments that break a rule the input schema could not say (one the environment
            // fills in) are invalid, as the schema's own refusals are; a model passes no flags,
            // so the command line's hint is left out.
            let failure = exchange.failure
            let message = failure.map { redactor.scrub($0.unhintedMessage) } ?? "no response"
            let invalid = failure.map { $0.kind == .invalidCall && $0.isArgumentError } ?? false
            return ToolOutcome(
                kind: invalid ? .invalid : .error, text: "moya-cli: " + message, structured: nil, status: nil,
                bytes: 0, seconds: exchange.seconds)
        }
        var lines: [String] = []
        var kind = Kind.ok
        if !exchange.passedValidation {
            kind = .error
            let failure = SendFailure(error: .statusCode(response), target: target, redactor: redactor)
            lines.append("moya-cli: " + redactor.scrub(failure.message))
        }
        let contentType = response.headers["Content-Type"]
        lines.append("Status: \(response.statusCode)")
        if let contentType { lines.append("Content-Type: " + redactor.scrub(contentType)) }
        var structured: JSONValue?
        let body: String
        // A stream's events are one JSON array, whatever the stream's own type.
        let json =
            exchange.streamed ? try? JSONValue(parsing: response.data) : Self.json(response, contentType: contentType)
        if let stream = exchange.stream {
            lines.append(
                "Stream: \(stream.events == 1 ? "1 event" : "\(stream.events) events"), ended by \(stream.stop.rawValue)"
            )
        }
        if let select {
            guard let json else {
                return ToolOutcome(
                    kind: .error,
                    text: (lines + [
                        "", "moya-cli: \(ToolCatalog.selectArgument) needs a JSON body, and this one is not",
                    ])
                    .joined(separator: "\n"),
                    structured: nil, status: response.statusCode, bytes: response.data.count,
                    seconds: exchange.seconds)
            }
            // The path is the model's: it runs on the body with every secret already gone, so
            // that no filter can test a secret's characters, and within a budget of work.
            guard let selected = select.values(in: redactor.scrubbing(json), budget: selectBudget) else {
                return ToolOutcome(
                    kind: .error,
                    text: (lines + [
                        "",
                        "moya-cli: \(ToolCatalog.selectArgument) '\(redactor.scrub(select.description))' stopped "
                            + "after \(selectBudget) steps on a body of \(response.data.count) bytes; select less, "
                            + "without nested .. segments or large patterns",
                    ])
                    .joined(separator: "\n"),
                    structured: nil, status: response.statusCode, bytes: response.data.count,
                    seconds: exchange.seconds)
            }
            body = JSONValue.array(selected).serialized(pretty: true, escapeSlashes: false, limit: previewLimit(limit))
        } else if let json {
            let cleaned = redactor.scrubbing(json)
            body = cleaned.serialized(pretty: true, escapeSlashes: false, limit: previewLimit(limit))
            if let outputSchema, kind == .ok {
                if body.utf8.count > limit {
                    // `structuredContent` would hold the whole body: --max-result-bytes bounds
                    // what reaches the model either way.
                    kind = .error
                    lines.insert(
                        "moya-cli: the body is over --max-result-bytes \(limit), so it has no structured content; "
                            + "select less with \(ToolCatalog.selectArgument)", at: 0)
                } else {
                    // A body that is not an object is `result` of one, as the schema says.
                    let content = wrapsResult ? JSONValue.object([("result", cleaned)]) : cleaned
                    if let broken = outputSchema.errors(in: content, limit: 1).first {
                        kind = .error
                        let masked = cleaned == json ? "" : " once its secrets are masked"
                        lines.insert(
                            "moya-cli: the body does not meet the tool's output schema\(masked) "
                                + "(\(ToolInput.describe(broken))), so it comes as text only", at: 0)
                    } else {
                        structured = content
                    }
                }
            }
        } else if let text = String(validating: response.data, as: UTF8.self), !text.utf8.contains(0) {
            body = redactor.scrub(text)
        } else {
            body = "(\(response.data.count) bytes of \(contentType.map(redactor.scrub) ?? "binary data"), not shown)"
        }
        var text = lines.joined(separator: "\n")
        if !body.isEmpty { text += "\n\n" + body }
        return ToolOutcome(
            kind: kind, text: cut(text, limit: limit, whole: body.utf8.count <= previewLimit(limit)),
            structured: structured, status: response.statusCode,
            bytes: response.data.count, seconds: exchange.seconds)
    }

    /// The outcome of a flow: each step's line as `run` prints it, and the failures, then the
    /// captures that are not secret, each scrubbed of every secret the specs know.
    static func of(_ result: CheckResult, redactor: Redactor, limit: Int) -> ToolOutcome {
        var lines = ["\(result.planned.qualifiedName): \(result.outcome.word)"]
        for step in result.steps {
            lines.append("  " + step.line)
            for failure in step.failures { lines.append("    " + failure.message) }
        }
        if result.steps.isEmpty, let reason = result.reason { lines.append("  " + reason) }
        for failure in result.failures where result.steps.isEmpty { lines.append("  " + failure.message) }
        if !result.captures.isEmpty {
            lines.append("captures:")
            for (name, value) in result.captures {
                lines.append("  \(name): " + redactor.scrubbing(value).serialized(escapeSlashes: false))
            }
        }
        let text = redactor.scrub(lines.joined(separator: "\n"))
        return ToolOutcome(
            kind: result.outcome == .passed ? .ok : .error, text: cut(text, limit: limit), structured: nil,
            status: result.steps.last?.status, bytes: 0, seconds: result.seconds)
    }

    /// The most steps of work a `moya.select` path may take (`JSONPath.values(in:budget:)`):
    /// every item of a 16 MiB array of objects, and a member of each, in well under a second.
    static let selectBudget = 2_000_000

    /// The body as JSON when it is JSON, by its type or, with no type, by its bytes.
    static func json(_ response: Response, contentType: String?) -> JSONValue? {
        guard !response.data.isEmpty else { return nil }
        if let contentType, !JSONValue.isJSONMediaType(contentType) { return nil }
        return try? JSONValue(parsing: response.data)
    }

    /// How much of a JSON body is written before it is cut to `limit`: enough to say how large
    /// a body of up to 1 MiB is, and no more, so that a large or deeply nested selection costs
    /// what is shown.
    static func previewLimit(_ limit: Int) -> Int { max(limit, 1 << 20) }

    /// `text` cut to at most `limit` bytes at a character boundary, with a last line saying
    /// how much was left out and how to ask for less; `whole` is false when `text` is already
    /// the start of a longer text.
    static func cut(_ text: String, limit: Int, whole: Bool = true) -> String {
        let bytes = text.utf8.count
        guard bytes > limit else { return text }
        var end = text.utf8.index(text.utf8.startIndex, offsetBy: limit)
        // Back off to the start of a character: a continuation byte is 10xxxxxx.
        while end > text.utf8.startIndex, text.utf8[end] & 0xC0 == 0x80 { end = text.utf8.index(before: end) }
        let kept = String(text.utf8[..<end]) ?? ""
        let left = bytes - kept.utf8.count
        return kept
            + (whole
                ? "\n[moya-cli: \(left) of \(bytes) bytes left out at --max-result-bytes \(limit); "
                : "\n[moya-cli: more than \(left) bytes left out at --max-result-bytes \(limit); ")
            + "select less with \(ToolCatalog.selectArgument), such as $.items[0:10]]"
    }
}
