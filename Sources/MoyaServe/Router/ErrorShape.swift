import MoyaJSON
import MoyaSpec

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How a route's error answers look when its target declares its own: the document's error
/// response, as `import openapi` writes it, in place of serve's RFC 9457 problem.
///
/// The sample for a status is the target's named sample at that status; else, for a 4xx,
/// one named `clientError…` (import's name for a `4XX` response), then for any status one
/// named `status5XX…` for a 5xx or `error…` (import's name for `default`). Only a sample
/// that reads no param serves, answered at the problem's status with its own headers and
/// body; the problem's detail goes into the first string member the body already has among
/// `detail`, `message`, `error_description`, `description`, `error`, `reason` and `title`
/// (at the top, or inside an `error` object), and a status member (`status`, `statusCode`,
/// `status_code`, `code`) that holds another HTTP status gets the answer's, so that a
/// `4XX` sample's `"status": 400` reads 401 in a 401 (and a 401 sample's made-up 400 does
/// too); each unless it breaks the sample's schema.
enum ErrorShape {
    /// The member names the detail may fill, in order of preference.
    static let detailKeys = ["detail", "message", "error_description", "description", "error", "reason", "title"]
    /// The member names a status may fill.
    static let statusKeys = ["status", "statusCode", "status_code", "code"]

    /// The answer at `status`, or nil when the target declares no error answer for it.
    static func answer(
        for route: MockRoute, status: Int, detail: String, headers extra: [(name: String, value: String)]
    ) -> (action: MockAnswer.Action, logged: String?)? {
        guard let name = sampleName(in: route.target, for: status), let fixed = route.fixedAnswers[name],
            case .respond(_, let headers, let body) = fixed.action
        else { return nil }
        // The sample was chosen by the problem, not asked for with `Prefer`.
        var sent = headers.filter { $0.name.lowercased() != "preference-applied" }
        sent.append(contentsOf: extra)
        let isJSON = sent.contains { $0.name.lowercased() == "content-type" && JSONValue.isJSONMediaType($0.value) }
        // The detail and the status, else the detail alone, else the status alone: the first
        // that keeps to the sample's schema.
        let edits: [(JSONValue) -> JSONValue?] = [
            { value in
                let detailed = filling(value, with: detail)
                return filling(detailed ?? value, status: status) ?? detailed
            },
            { value in filling(value, with: detail) },
            { value in filling(value, status: status) },
        ]
        guard isJSON, let value = try? JSONValue(parsing: Data(body)),
            let (edit, filled) = edits.lazy.compactMap({ edit in edit(value).map { (edit, $0) } }).first(where: {
                route.contract.sampleErrors($0.1, sample: name).isEmpty
            })
        else {
            return (.respond(status: status, headers: sent, body: body), fixed.loggedBody)
        }
        let text = filled.serialized(escapeSlashes: false)
        let logged = fixed.loggedBody.flatMap { try? JSONValue(parsing: $0) }.flatMap(edit)
        return (
            .respond(status: status, headers: sent, body: Array(text.utf8)),
            logged?.serialized(escapeSlashes: false) ?? fixed.loggedBody
        )
    }

    /// The media type a problem is answered in for `target`: RFC 9457's
    /// `application/problem+json`, unless the target's error samples declare JSON only in
    /// other types (`application/json`, as most documents do), where a client held to the
    /// document expects that one; the first of them then.
    static func problemMediaType(for target: TargetSpec) -> String {
        let problem = "application/problem+json"
        var declared: [String] = []
        for named in target.samples {
            guard case .response(let status, let headers, let body) = named.sample, status >= 400 else { continue }
            let written = headers.first { $0.name.lowercased() == "content-type" }?.value.literalText
            if let written {
                declared.append(written.lowercased())
            } else if case .json = body {
                declared.append("application/json")
            }
        }
        let json = declared.filter(JSONValue.isJSONMediaType)
        guard let first = json.first, !json.contains(where: { $0.hasPrefix(problem) }) else { return problem }
        return first
    }

    /// The name of the target's error sample for `status`, by the order above.
    static func sampleName(in target: TargetSpec, for status: Int) -> String? {
        let samples = target.samples.filter { $0.sample.status != nil }
        if let exact = samples.first(where: { $0.sample.status == status }) { return exact.name }
        let ranges =
            (400..<500).contains(status)
            ? [("clientError", 400)] : (500..<600).contains(status) ? [("status5XX", 500)] : []
        for (prefix, code) in ranges + [("error", 500)] {
            if let found = samples.first(where: { $0.name.hasPrefix(prefix) && $0.sample.status == code }) {
                return found.name
            }
        }
        return nil
    }

    /// `value` with `status` in each status member that holds another HTTP status (100 to 599,
    /// a number or its digits), at the top or inside an `error` object: the sample's own, or
    /// one made up from the schema (`"status": 400` in a 401); nil when none does.
    static func filling(_ value: JSONValue, status: Int, nested: Bool = true) -> JSONValue? {
        guard case .object(var members) = value else { return nil }
        var changed = false
        for index in members.indices {
            let member = members[index]
            if statusKeys.contains(member.key), case .integer(let held) = member.value, held != status,
                (100...599).contains(held)
            {
                members[index].value = .integer(status)
                changed = true
            } else if statusKeys.contains(member.key), case .string(let held) = member.value, held != String(status),
                held.count == 3, let code = Int(held), (100...599).contains(code)
            {
                members[index].value = .string(String(status))
                changed = true
            } else if nested, member.key == "error", let inner = filling(member.value, status: status, nested: false) {
                members[index].value = inner
                changed = true
            }
        }
        return changed ? .object(members) : nil
    }

    /// `value` with `detail` in its first string member named for it, at the top or inside an
    /// `error` object; nil when it has none.
    static func filling(_ value: JSONValue, with detail: String, nested: Bool = true) -> JSONValue? {
        guard case .object(var members) = value else { return nil }
        for key in detailKeys {
            if let index = members.firstIndex(where: { $0.key == key }), case .string = members[index].value {
                members[index].value = .string(detail)
                return .object(members)
            }
        }
        if nested, let index = members.firstIndex(where: { $0.key == "error" }), case .object = members[index].value,
            let inner = filling(members[index].value, with: detail, nested: false)
        {
            members[index].value = inner
            return .object(members)
        }
        return nil
    }
}
