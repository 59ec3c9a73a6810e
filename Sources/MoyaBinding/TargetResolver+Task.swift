import MoyaHTTP
import MoyaSpec
import MoyaStreams

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension TargetResolver {
    /// The parts an array or object value makes of the part `name`, as its style writes a
    /// form's entries: an array a part per item (exploded, the default) or one part of the
    /// items joined; an object a part per member under its own name (`form` exploded, the
    /// default), under `name[member]` (`deepObject`), or one part (`R,100,G,200`). Nil for a
    /// scalar, which is one part as it is.
    static func partPieces(_ value: ParamValue, named name: String, style: ParamStyle?) -> [(String, String)]? {
        if let entries = (style ?? .form).formEntries(value, key: name) { return entries.map { ($0.key, $0.text) } }
        guard case .array(let items) = value else { return nil }
        return items.map { (name, $0.description) }
    }

    /// The Moya task. A composite task's query in declared order cannot be expressed as Moya's
    /// `urlParameters`, which are sorted; it is written into `baseURL`'s query instead.
    func makeTask(headers: inout HTTPHeaders, baseURL: inout URL) throws(ResolveError) -> MoyaHTTP.Task {
        // A query written as a list is written as a list of strings would be: booleans as
        // `true` and `false`, whatever the task's body says.
        func writeIntoURL(_ query: ParameterBlock) throws(ResolveError) {
            let (parameters, order) = self.parameters(query)
            guard !parameters.isEmpty else { return }
            let text = URLEncoding(
                destination: .queryString, arrayEncoding: .noBrackets, boolEncoding: .literal, keyOrder: order
            ).query(parameters)
            do {
                baseURL = try URLEncoding.appendingQuery(text, to: baseURL)
            } catch {
                throw ResolveError(message: "the query \(text) does not fit the base URL", isUsageError: false)
            }
        }
        func urlParameters(_ query: ParameterBlock) throws(ResolveError) -> Parameters {
            guard query.isOrdered else { return self.parameters(query).parameters }
            try writeIntoURL(query)
            return [:]
        }
        // A JSON body with a query, which Moya's JSON task cannot carry: the JSON's bytes.
        func jsonData(_ body: JSONValue, _ query: ParameterBlock, replacingType: Bool) throws(ResolveError)
            -> MoyaHTTP.Task
        {
            if replacingType || !headers.contains("Content-Type") {
                headers.update(name: "Content-Type", value: "application/json")
            }
            return .requestCompositeData(
                bodyData: Data(body.serialized(escapeSlashes: false).utf8), urlParameters: try urlParameters(query))
        }

        if let edit = binding.body, !target.task.hasEditableBody {
            throw ResolveError(
                message: "\(service.name).\(target.name) sends \(target.task.bodyDescription); "
                    + (edit.fields.isEmpty ? "--body" : "--set") + " changes a JSON or data body",
                isUsageError: true)
        }
        switch target.task {
        case .plain:
            return .requestPlain
        case .data(let source, let contentType, let query):
            var body = try data(of: source)
            let type = contentType.flatMap { render($0) }
            if let type, !headers.contains("Content-Type") {
                headers.update(name: "Content-Type", value: type)
            }
            if let edit = binding.body {
                body = try edited(body, by: edit, isJSON: type.map(JSONValue.isJSONMediaType) ?? false)
            }
            guard let query else { return .requestData(body) }
            return .requestCompositeData(bodyData: body, urlParameters: try urlParameters(query))
        case .json(let value, let query):
            var body = render(value) ?? .null
            if let edit = binding.body { body = try edited(body, by: edit) }
            guard let query else { return .requestJSONEncodable(body) }
            return try jsonData(body, query, replacingType: false)
        case .parameters(let block, let spec, let query):
            let (parameters, order) = parameters(block, urlEncoded: spec.kind != .json && spec.kind != .prettyJSON)
            let encoding = encoding(spec, ordered: block.isOrdered ? order : nil)
            // An edited JSON body is sent as the JSON it comes to, its members in the block's order.
            if let edit = binding.body {
                let members = order.compactMap { key in parameters[key].map { (key: key, value: $0) } }
                let body = try edited(.object(members), by: edit)
                guard let query else { return .requestJSONEncodable(body) }
                return try jsonData(body, query, replacingType: true)
            }
            guard let query else { return .requestParameters(parameters: parameters, encoding: encoding) }
            return .requestCompositeParameters(
                bodyParameters: parameters, bodyEncoding: encoding, urlParameters: try urlParameters(query))
        case .upload(let template, let query):
            // Moya's upload has no query: the query goes into the URL as an ordered one does, and
            // the file still streams.
            if let query { try writeIntoURL(query) }
            // An optional file param left out sends no body, as it leaves a multipart part out.
            if let whole = template.wholeParam, binding.values[whole] == nil { return .requestPlain }
            return .uploadFile(try fileURL(template))
        case .multipart(let partSpecs, let query):
            var parts: [MultipartFormBodyPart] = []
            for part in partSpecs {
                let provider: MultipartFormBodyPart.Provider
                switch part.content {
                case .value(let template):
                    // An array repeats its part, one per item, as OpenAPI sends a multipart array;
                    // a style the param names writes it as a query entry's value is written.
                    if let whole = template.wholeParam, let bound = value(whole),
                        let pieces = Self.partPieces(bound, named: part.name, style: target.param(named: whole)?.style)
                    {
                        for (name, text) in pieces {
                            parts.append(
                                MultipartFormBodyPart(
                                    provider: .data(Data(text.utf8)), name: name,
                                    fileName: part.fileName.flatMap { render($0) },
                                    mimeType: part.mimeType.flatMap { render($0) }))
                        }
                        continue
                    }
                    guard let text = render(template) else { continue }
                    provider = .data(Data(text.utf8))
                case .file(let template):
                    // An optional file param left out leaves its part out, as a value's does.
                    if let whole = template.wholeParam, binding.values[whole] == nil { continue }
                    provider = .file(try fileURL(template))
                }
                parts.append(
                    MultipartFormBodyPart(
                        provider: provider, name: part.name, fileName: part.fileName.flatMap { render($0) },
                        mimeType: part.mimeType.flatMap { render($0) }))
            }
            let form = MultipartFormData(parts: parts)
            guard let query else { return .uploadMultipartFormData(form) }
            return .uploadCompositeMultipartFormData(form, urlParameters: try urlParameters(query))
        case .download(let template, let block, let spec):
            // A path the spec writes is the spec file's; a lone param's is the caller's.
            let url = try destinationURL(template)
            let destination: DownloadDestination = { _, _ in url }
            guard let block else { return .downloadDestination(destination) }
            let (parameters, order) = parameters(block, urlEncoded: spec.kind != .json && spec.kind != .prettyJSON)
            return .downloadParameters(
                parameters: parameters, encoding: encoding(spec, ordered: block.isOrdered ? order : nil),
                destination: destination)
        }
    }

    /// A JSON body as the caller changes it: the whole body given instead, then each value set.
    func edited(_ body: JSONValue, by edit: BodyEdit) throws(ResolveError) -> JSONValue {
        let base = try edit.whole.map { whole throws(ResolveError) in try Self.json(whole, from: "--body") }
        return try Self.setting(edit.fields, in: base ?? body)
    }

    /// A data body as the caller changes it: the whole body given instead (JSON, when the
    /// content type says so), then each value set, which needs a JSON body.
    func edited(_ body: Data, by edit: BodyEdit, isJSON: Bool) throws(ResolveError) -> Data {
        let base = edit.whole ?? body
        guard !edit.fields.isEmpty else {
            if isJSON, edit.whole != nil { _ = try Self.json(base, from: "--body") }
            return base
        }
        let json = try Self.json(
            base, from: edit.whole == nil ? "the body of \(service.name).\(target.name)" : "--body")
        return Data(try Self.setting(edit.fields, in: json).serialized(escapeSlashes: false).utf8)
    }

    /// Each `--set` value, in order, on the result of the ones before.
    static func setting(_ fields: [BodyEdit.Field], in body: JSONValue) throws(ResolveError) -> JSONValue {
        var result = body
        for field in fields {
            do {
                result = try result.setting(field.value, at: field.path)
            } catch {
                throw ResolveError(message: "--set '\(field.written)': \(error.description)", isUsageError: true)
            }
        }
        return result
    }

    static func json(_ data: Data, from origin: String) throws(ResolveError) -> JSONValue {
        do {
            return try JSONValue(parsing: data)
        } catch let error as JSONParseError {
            throw ResolveError(
                message: "\(origin) is not JSON: \(error.reason) at byte \(error.offset)", isUsageError: true)
        } catch {
            throw ResolveError(message: "\(origin) is not JSON: \(error)", isUsageError: true)
        }
    }

    /// Whether `template` is a lone param the caller gave on the command line: then the path
    /// is the caller's own, taken as given and not confined to the spec's file root.
    private func isCallersPath(_ template: Template) -> Bool {
        template.wholeParam.map { binding.callerParams.contains($0) } ?? false
    }

    /// A path a task names, rendered: the caller's as given, any other relative to the spec
    /// file (a file param's value from the spec is that already: see `bind`).
    private func taskPath(_ template: Template) -> String {
        let path = render(template, environmentIsSecret: false) ?? ""
        if isCallersPath(template) { return path }
        if let name = template.wholeParam, target.param(named: name)?.elementType == .file { return path }
        return service.path(path)
    }

    /// A file a task reads: the caller's path as given; any other inside the spec's file root.
    func fileURL(_ template: Template) throws(ResolveError) -> URL {
        let path = taskPath(template)
        if isCallersPath(template) {
            guard FileSystem.isRegularFile(path) else {
                throw ResolveError(message: "no file at \(path)", isUsageError: true)
            }
            return URL(fileURLWithPath: path)
        }
        do {
            return URL(fileURLWithPath: try service.fileRoot.file(path))
        } catch {
            throw ResolveError(message: error.description, isUsageError: false)
        }
    }

    /// Where a download is written: the caller's path as given; any other inside the spec's
    /// file root, never through a link.
    func destinationURL(_ template: Template) throws(ResolveError) -> URL {
        let path = taskPath(template)
        if isCallersPath(template) { return URL(fileURLWithPath: path) }
        do {
            return URL(fileURLWithPath: try service.fileRoot.destination(path))
        } catch {
            throw ResolveError(message: "download: \(error)", isUsageError: false)
        }
    }

    func data(of source: DataSource) throws(ResolveError) -> Data {
        switch source {
        case .text(let template): return Data((render(template) ?? "").utf8)
        case .file(let path): return try read(service.path(path))
        }
    }

    /// A file the spec names, read whole from inside its file root.
    func read(_ path: String) throws(ResolveError) -> Data {
        do {
            return Data(try service.fileRoot.read(path))
        } catch {
            throw ResolveError(message: error.description, isUsageError: false)
        }
    }

    /// The sample as MoyaCore answers a stub with it: its status, its headers in the order
    /// declared, its body, or its network error.
    func makeSample(_ spec: SampleSpec?) throws(ResolveError) -> EndpointSampleResponse {
        guard let spec else { return .response(ResponseHead(statusCode: 200), Data()) }
        switch spec {
        case .error(let error):
            return .networkError(NetworkError(error.code, "sample error: \(error.rawValue)"))
        case .response(let status, let headerSpecs, let bodySpec):
            var headers = HTTPHeaders()
            for header in headerSpecs {
                if let value = render(header.value) { headers.update(name: header.name, value: value) }
            }
            let body: Data
            switch bodySpec {
            case .empty: body = Data()
            case .text(let template): body = Data((render(template) ?? "").utf8)
            case .json(let value):
                body = Data((render(value) ?? .null).serialized(escapeSlashes: false).utf8)
                // A JSON sample says so, as a server would, unless the sample sets its own type.
                if !headers.contains("Content-Type") { headers.add(name: "Content-Type", value: "application/json") }
            case .file(let path): body = try read(path)
            case .events(let events):
                // A stream sample is written as the target's stream kind, SSE unless it says.
                let kind = target.stream?.kind ?? .sse
                body = Data(sampleEvents(events).flatMap { $0.event.wire(as: kind) })
                if !headers.contains("Content-Type"), let type = StreamEvent.contentType(of: kind) {
                    headers.add(name: "Content-Type", value: type)
                }
                // A WebSocket's messages come after its handshake's answer.
                if kind == .websocket {
                    headers.update(name: "Upgrade", value: "websocket")
                    return .response(ResponseHead(statusCode: 101, headers: headers), body)
                }
            }
            return .response(ResponseHead(statusCode: status, headers: headers), body)
        }
    }

    /// A stream sample's events, their data rendered (text as it is, any other value as
    /// JSON), each with the delay before it.
    func sampleEvents(_ events: [SampleEvent]) -> [(event: StreamEvent, delay: Double?)] {
        events.enumerated().map { index, sample in
            let data: String =
                switch render(sample.data) ?? .null {
                case .string(let text): text
                case let value: value.serialized(escapeSlashes: false)
                }
            return (
                StreamEvent(index: index, event: sample.event, id: sample.id, data: data, retry: sample.retry),
                sample.delay
            )
        }
    }

    func makeAuthorization(_ auth: AuthSpec?) -> (type: AuthorizationType, token: String)? {
        switch auth {
        // Credentials the environment left unset are not sent, not even as `Basic Og==`.
        case nil, .none?, .login?: return nil
        case .bearer(let token)?: return render(token, inHeader: true).map { (.bearer, $0) }
        case .basic(let user, let password)?:
            let (user, password) = (render(user), render(password))
            guard user != nil || password != nil else { return nil }
            let pair = (user ?? "") + ":" + (password ?? "")
            return (.basic, Data(pair.utf8).base64EncodedString())
        case .custom(let scheme, let token)?: return render(token, inHeader: true).map { (.custom(scheme), $0) }
        }
    }
}
