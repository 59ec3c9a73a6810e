import MoyaHTTP
import MoyaSpec

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `moya-cli import har`: the requests of an HTTP Archive (a browser's "Save all as HAR",
/// mitmproxy's or Charles' export) as one spec. Entries with the same method, origin and path
/// template are one target: a path segment that is a number, a UUID or a long hex string is a
/// param (`/users/{userId}`), its default the first value seen. Each target sends what its
/// first entry recorded (the query, the headers but those the transport writes, the body) and
/// answers, stubbed, what the entries' responses were: the first as `sample:`, one of each
/// other status as a named sample. `Cookie`, `Authorization` and credential-named headers and
/// query keys are read from variables, never written.
public enum HARImporter {
    public typealias Result = ImportedCollection

    public typealias Refusal = ImportRefusal

    /// The most of a response body kept as a sample.
    static let sampleLimit = 64 << 10

    public static func importArchive(_ data: [UInt8], file: String, service: String?) throws(Refusal) -> Result {
        let document: JSONValue
        do {
            document = try JSONValue(parsing: Data(data))
        } catch {
            throw Refusal(message: "\(file) is not JSON: \(error)")
        }
        // A whole archive, one entry, or one request as Insomnia also takes.
        let entries: [JSONValue]
        if let list = document["log"]?["entries"]?.arrayValue {
            entries = list
        } else if document["request"] != nil {
            entries = [document]
        } else if document["method"] != nil || document["url"] != nil {
            entries = [.object([("request", document)])]
        } else {
            throw Refusal(message: "\(file) is not an HTTP Archive: it has no log.entries")
        }
        var report = ImportReport(format: "har", source: file)
        report.requests = entries.count
        var variables = OrderedNames()
        struct Group {
            var target: ImportedSpec.Target
            var origin: String
            var statuses: Set<Int>
            var sampleNames: Set<String>
        }
        var groups: [String: Int] = [:]
        var ordered: [Group] = []
        var origins: [String: Int] = [:]
        var names: Set<String> = []
        let serviceName: String
        var firstHost: String?
        for entry in entries {
            if firstHost == nil, let url = entry["request"]?["url"]?.stringValue,
                let parts = PostmanImporter.URLParts(url)
            {
                firstHost = parts.base.split(separator: "/").last.map { String($0.prefix { $0 != ":" }) }
            }
        }
        serviceName =
            service.map { Names.lowerCamel($0, fallback: "har") } ?? firstHost.flatMap(Names.service(host:)) ?? "har"
        func credential(_ key: String) -> ImportedSpec.Text {
            let variable = Names.environment(serviceName, key)
            variables.add(variable)
            return .environment(variable, or: "")
        }

        for (index, entry) in entries.enumerated() {
            let place = "\(file): entry \(index + 1)"
            guard let request = entry["request"], let url = request["url"]?.stringValue, !url.isEmpty else {
                report.leave(place, "request", "it has no URL, so there is nothing to send")
                continue
            }
            let method = (request["method"]?.stringValue ?? "GET").uppercased()
            guard ImportReport.methods.contains(method) else {
                report.leave(place, "request", "a spec cannot send the method \(method)")
                continue
            }
            guard let parts = PostmanImporter.URLParts(url), url.lowercased().hasPrefix("http") else {
                report.leave(place, "request", "its URL \(url) is not an http or https one")
                continue
            }
            // The path template: ids as params.
            var params: [ImportedSpec.Param] = []
            var template = ""
            var previous = ""
            for segment in parts.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
                template += "/"
                let decoded = PercentEncoding.decode(segment)
                if Self.isIdentifier(decoded) {
                    var name = Names.lowerCamel(Self.singular(previous) + " id", fallback: "id")
                    var number = 2
                    while params.contains(where: { $0.name == name }) {
                        name = Names.lowerCamel(Self.singular(previous) + " id", fallback: "id") + "\(number)"
                        number += 1
                    }
                    var param = ImportedSpec.Param(
                        name: name, type: "string", description: "a path segment that varies", optional: false)
                    param.defaultValue = .string(decoded)
                    params.append(param)
                    template += "{\(name)}"
                } else {
                    template += YAMLText.template(decoded)
                }
                previous = decoded
            }
            if template.isEmpty { template = "/" }
            let key = "\(method) \(parts.base)\(template)"
            if let existing = groups[key] {
                report.merged += 1
                // Another entry of a target: its response, if of a new status, a named sample.
                if let sample = Self.sample(entry["response"], place: place, report: &report),
                    !ordered[existing].statuses.contains(sample.status)
                {
                    ordered[existing].statuses.insert(sample.status)
                    let name = Names.unique("status\(sample.status)", in: &ordered[existing].sampleNames)
                    ordered[existing].target.samples.append((name, sample))
                }
                continue
            }
            var target = ImportedSpec.Target(name: "", method: method, path: template)
            target.summary = "\(method) \(Self.display(parts.path))"
            target.params = params

            // The query as recorded: `queryString`, else the URL's.
            var query: [ImportedSpec.Entry] = []
            let pairs: [(String, String)]
            if let list = request["queryString"]?.arrayValue, !list.isEmpty {
                pairs = list.compactMap { pair in
                    pair["name"]?.stringValue.map { ($0, pair["value"].map(PostmanImporter.text) ?? "") }
                }
            } else {
                pairs = (parts.query ?? "").split(separator: "&").filter { !$0.isEmpty }.map { pair in
                    (
                        PercentEncoding.decode(pair.prefix { $0 != "=" }, plusIsSpace: true),
                        PercentEncoding.decode(pair.drop { $0 != "=" }.dropFirst(), plusIsSpace: true)
                    )
                }
            }
            for (name, value) in pairs {
                query.append(
                    ImportedSpec.Entry(
                        key: name,
                        value: CredentialNames.isCredential(name: name)
                            ? credential(name) : ImportedSpec.Text([.data(YAMLText.template(value))])))
            }

            // Headers, but those the transport writes itself.
            var headers: [ImportedSpec.Entry] = []
            var contentType: String?
            for header in request["headers"]?.arrayValue ?? [] {
                guard let name = header["name"]?.stringValue, !name.isEmpty else { continue }
                let value = header["value"].map(PostmanImporter.text) ?? ""
                let lower = name.lowercased()
                if name.hasPrefix(":") || ["host", "content-length", "connection", "transfer-encoding"].contains(lower)
                {
                    continue
                }
                if lower == "accept-encoding" {
                    report.leave(
                        place, "header \(name)", "moya-cli asks for gzip and deflate itself and decodes the answer")
                    continue
                }
                if lower == "content-type" {
                    contentType = value
                    continue
                }
                if lower == "authorization", let user = ImportReport.basicUser(ofHeader: value) {
                    target.auth = .basic(
                        user: ImportedSpec.Text([.data(YAMLText.template(user))]), password: credential("password"))
                    continue
                }
                if lower == "authorization", value.lowercased().hasPrefix("bearer ") {
                    target.auth = .bearer(credential("token"))
                    continue
                }
                let isCredential =
                    ["authorization", "cookie"].contains(lower) || CredentialNames.isCredential(name: lower)
                headers.append(
                    ImportedSpec.Entry(
                        key: name,
                        value: isCredential ? credential(name) : ImportedSpec.Text([.data(YAMLText.template(value))])))
            }
            // Recorded cookies with no Cookie header: one, from a variable.
            if !(request["cookies"]?.arrayValue ?? []).isEmpty,
                !headers.contains(where: { $0.key.lowercased() == "cookie" })
            {
                headers.append(ImportedSpec.Entry(key: "Cookie", value: credential("cookie")))
            }

            // The body: its text, or its params as a form.
            if let post = request["postData"] {
                let type = post["mimeType"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? contentType
                let text = post["text"].map(PostmanImporter.text) ?? ""
                let formParams = post["params"]?.arrayValue ?? []
                // A form is sent from its params when it has no text, is multipart, or has a
                // credential field, which is then read from a variable; else as recorded.
                let isForm =
                    !formParams.isEmpty
                    && (text.isEmpty || (type ?? "").lowercased().hasPrefix("multipart/")
                        || formParams.contains { ImportReport.isCredentialField($0["name"]?.stringValue ?? "") })
                if !text.isEmpty, !isForm {
                    let body =
                        ImportReport.withholdingCredentials(inJSON: text, variable: credential)
                        ?? ImportedSpec.Text([.data(text)])
                    target.task = .text(body, contentType: type ?? "application/octet-stream", query: query)
                    if contentType != nil, contentType == type { contentType = nil }
                } else if isForm {
                    var parts: [ImportedSpec.Part] = []
                    var entries: [ImportedSpec.Entry] = []
                    var fileParams = Set(target.params.map(\.name))
                    let multipart =
                        (type ?? "").lowercased().hasPrefix("multipart/")
                        || formParams.contains { $0["fileName"]?.stringValue != nil }
                    for param in formParams {
                        guard let name = param["name"]?.stringValue else { continue }
                        let value = param["value"].map(PostmanImporter.text) ?? ""
                        if let fileName = param["fileName"]?.stringValue {
                            let paramName = Names.param(name)
                            if fileParams.insert(paramName).inserted {
                                target.params.append(
                                    ImportedSpec.Param(
                                        name: paramName, type: "file",
                                        description: "the HAR recorded the file \(fileName)",
                                        optional: false))
                            }
                            parts.append(
                                ImportedSpec.Part(
                                    name: name, template: "{\(paramName)}", isFile: true,
                                    mimeType: param["contentType"]?.stringValue))
                        } else {
                            let text: ImportedSpec.Text =
                                ImportReport.isCredentialField(name)
                                ? credential(name) : ImportedSpec.Text([.data(YAMLText.template(value))])
                            parts.append(ImportedSpec.Part(name: name, template: text, isFile: false, mimeType: nil))
                            entries.append(ImportedSpec.Entry(key: name, value: text))
                        }
                    }
                    target.task =
                        multipart
                        ? .multipart(parts, query: query) : .parameters(entries, encoding: "httpBody", query: query)
                    contentType = nil
                }
            }
            if target.task == nil, !query.isEmpty {
                target.task = .parameters([], encoding: "queryString", query: query)
            }
            if let contentType {
                headers.append(ImportedSpec.Entry(key: "Content-Type", value: ImportedSpec.Text([.data(contentType)])))
            }
            target.headers = PostmanImporter.Importer.merged(headers)
            var statuses: Set<Int> = []
            if let sample = Self.sample(entry["response"], place: place, report: &report) {
                target.sample = sample
                statuses.insert(sample.status)
            }
            target.name = Names.unique(
                Names.lowerCamel(
                    method.lowercased() + " " + parts.path.replacing("/", with: " "), fallback: method.lowercased()),
                in: &names)
            groups[key] = ordered.count
            ordered.append(Group(target: target, origin: parts.base, statuses: statuses, sampleNames: []))
            origins[parts.base, default: 0] += 1
        }
        let common = origins.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
        var spec = ImportedSpec(service: serviceName, baseURL: ImportedSpec.Text([.data(common ?? "http://localhost")]))
        spec.comment = ["Imported by moya-cli import har."]
        for group in ordered {
            var target = group.target
            if group.origin != common { target.baseURL = ImportedSpec.Text([.data(group.origin)]) }
            spec.targets.append(target)
        }
        report.targets = spec.targets.count
        report.services = spec.targets.isEmpty ? 0 : 1
        report.variables = variables.list
        return Result(spec: SpecWriter.write(spec), service: serviceName, report: report)
    }

    /// A response as a sample: its status, Content-Type and text (JSON when it is), a body
    /// over 64 KiB or in base64 left out and reported.
    static func sample(_ response: JSONValue?, place: String, report: inout ImportReport) -> ImportedSpec.Sample? {
        guard let response, let status = response["status"]?.numberValue.flatMap({ Int(exactly: $0) }),
            (100...599).contains(status)
        else { return nil }
        let content = response["content"]
        var type = content?["mimeType"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        var sample = ImportedSpec.Sample(status: status, json: nil, body: nil, contentType: type)
        guard let text = content?["text"]?.stringValue, !text.isEmpty else { return sample }
        if content?["encoding"]?.stringValue == "base64" {
            report.leave(place, "response body", "a body recorded in base64 is not kept as a sample")
            return sample
        }
        guard text.utf8.count <= sampleLimit else {
            report.leave(place, "response body", "a body over 64 KiB is not kept as a sample")
            return sample
        }
        if JSONValue.isJSONMediaType(type ?? ""), let json = try? JSONValue(parsing: text) {
            sample.json = json
            type = nil
            sample.contentType = nil
        } else {
            sample.body = text
        }
        return sample
    }

    /// A path segment that names one thing rather than a kind: digits, a UUID, or 16 or more
    /// hex digits.
    static func isIdentifier(_ segment: String) -> Bool {
        guard !segment.isEmpty else { return false }
        if segment.allSatisfy(\.isASCII), segment.allSatisfy(\.isNumber) { return true }
        let hex = segment.filter { $0 != "-" }
        let isHex = hex.allSatisfy { $0.isASCII && $0.isHexDigit }
        if isHex, segment.count == 36, segment.filter({ $0 == "-" }).count == 4 { return true }
        return isHex && hex.count >= 16 && hex.count == segment.count && hex.contains(where: \.isNumber)
    }

    /// `users` as `user`, for a param's name.
    static func singular(_ word: String) -> String {
        word.hasSuffix("s") && word.count > 1 ? String(word.dropLast()) : word
    }

    static func display(_ path: String) -> String { path.isEmpty ? "/" : path }
}
