import MoyaHTTP

/// How a target's request carries its parameters and body, as the spec declares it.
public enum TaskSpec: Sendable, Hashable {
    /// No body, no parameters: `requestPlain`.
    case plain
    /// A raw body, with an optional query: `requestData` or `requestCompositeData`.
    case data(DataSource, contentType: Template?, query: ParameterBlock?)
    /// A JSON body, its members in the order written, with an optional query:
    /// `requestJSONEncodable`, or `requestCompositeData` of the JSON with a query.
    case json(ValueTemplate, query: ParameterBlock?)
    /// Encoded parameters, with an optional query: `requestParameters` or
    /// `requestCompositeParameters`.
    case parameters(ParameterBlock, encoding: EncodingSpec, query: ParameterBlock?)
    /// A body streamed from a file, with an optional query: `uploadFile`. Moya's has no query;
    /// one is written into the request's URL, as an ordered query is.
    case upload(Template, query: ParameterBlock?)
    /// A multipart body, with an optional query: `uploadMultipartFormData` or
    /// `uploadCompositeMultipartFormData`.
    case multipart([MultipartPartSpec], query: ParameterBlock?)
    /// A download to a destination, with optional parameters: `downloadDestination` or
    /// `downloadParameters`.
    case download(Template, parameters: ParameterBlock?, encoding: EncodingSpec)

    /// Moya's name for the task this compiles to.
    public var moyaName: String {
        switch self {
        case .plain: "requestPlain"
        case .data(_, _, let query): query == nil ? "requestData" : "requestCompositeData"
        case .json(_, let query): query == nil ? "requestJSONEncodable" : "requestCompositeData"
        case .parameters(_, _, let query): query == nil ? "requestParameters" : "requestCompositeParameters"
        case .upload: "uploadFile"
        case .multipart(_, let query): query == nil ? "uploadMultipartFormData" : "uploadCompositeMultipartFormData"
        case .download(_, let parameters, _): parameters == nil ? "downloadDestination" : "downloadParameters"
        }
    }

    /// Whether `call --body` and `--set` can change the body: a data or JSON body, or
    /// parameters sent as JSON.
    public var hasEditableBody: Bool {
        switch self {
        case .data, .json: true
        case .parameters(_, let encoding, _): encoding.kind == .json || encoding.kind == .prettyJSON
        case .plain, .upload, .multipart, .download: false
        }
    }

    /// Whether the task sends a body with `method`: every task but a plain one, a download,
    /// and params that go in the URL.
    public func sendsBody(_ method: Method) -> Bool {
        switch self {
        case .plain, .download: false
        case .parameters(_, let encoding, _):
            switch encoding.kind {
            case .queryString: false
            case .url: !URLEncoding.Destination.methodDependent.encodesInURL(for: method)
            case .httpBody, .json, .prettyJSON: true
            }
        case .data, .json, .upload, .multipart: true
        }
    }

    /// How the task uses a param's value as a file's path.
    public enum PathUse: Sendable, Hashable {
        /// The whole path of a file it reads: an upload, a multipart file part.
        case reads
        /// Part of the path of a file it reads (`uploads/{name}.txt`), or the path of a file
        /// it writes (a download).
        case other
    }

    /// How the task uses `param`'s value as a path, nil when it does not: a caller's value
    /// names a file, which a stranger's (an MCP client's) may only inside `--allow-files`.
    public func pathUse(of param: String) -> PathUse? {
        var reads: [Template] = []
        var writes: [Template] = []
        switch self {
        case .upload(let template, _): reads = [template]
        case .multipart(let parts, _):
            reads = parts.compactMap { part in
                if case .file(let template) = part.content { return template }
                return nil
            }
        case .download(let template, _, _): writes = [template]
        case .plain, .data, .json, .parameters: break
        }
        if writes.contains(where: { $0.params.contains(param) }) { return .other }
        guard let template = reads.first(where: { $0.params.contains(param) }) else { return nil }
        return reads.allSatisfy({ !$0.params.contains(param) || $0.wholeParam == param })
            && template.wholeParam == param
            ? .reads : .other
    }

    /// What the body is, for messages: `no body`, `a multipart body`.
    public var bodyDescription: String {
        switch self {
        case .plain, .download: "no body"
        case .data: "a data body"
        case .json: "a JSON body"
        case .parameters(_, let encoding, _):
            switch encoding.kind {
            case .json, .prettyJSON: "a JSON body"
            case .httpBody: "a form body"
            case .url, .queryString: "its params in the URL or a form"
            }
        case .upload: "a file's bytes"
        case .multipart: "a multipart body"
        }
    }
}

/// Where a raw body comes from.
public enum DataSource: Sendable, Hashable {
    /// Literal text; braces are not references, but `${VAR}` values are marked as such.
    case text(Template)
    /// A file, relative to the spec file.
    case file(String)
}

/// A parameter encoding as the spec names it.
public struct EncodingSpec: Sendable, Hashable {
    /// The encoding's name.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Method-dependent URL encoding.
        case url
        /// Always the query.
        case queryString
        /// Always a form body.
        case httpBody
        /// A JSON body.
        case json
        /// An indented JSON body.
        case prettyJSON
    }

    /// How arrays are written in URL encodings.
    public enum Arrays: String, Sendable, Hashable, CaseIterable {
        /// `key[]=a`.
        case brackets
        /// `key=a`.
        case noBrackets
        /// `key[0]=a`.
        case indexInBrackets
    }

    /// How booleans are written in URL encodings.
    public enum Bools: String, Sendable, Hashable, CaseIterable {
        /// `1` and `0`.
        case numeric
        /// `true` and `false`.
        case literal
    }

    /// The encoding.
    public var kind: Kind = .url
    /// The array style.
    public var arrays: Arrays = .brackets
    /// The boolean style.
    public var bools: Bools = .numeric

    /// Every stored property, as the memberwise initializer takes them, for the compiler's module.
    package init(kind: Kind = .url, arrays: Arrays = .brackets, bools: Bools = .numeric) {
        self.kind = kind
        self.arrays = arrays
        self.bools = bools
    }
}

/// One part of a multipart body.
public struct MultipartPartSpec: Sendable, Hashable {
    /// The part's content.
    public enum Content: Sendable, Hashable {
        /// A text value.
        case value(Template)
        /// A file's contents.
        case file(Template)
    }

    /// The form field name.
    public var name: String
    /// The content.
    public var content: Content
    /// The file name sent, if given.
    public var fileName: Template?
    /// The part's content type, if given.
    public var mimeType: Template?

    /// Every stored property, as the memberwise initializer takes them, for the compiler's module.
    package init(name: String, content: Content, fileName: Template? = nil, mimeType: Template? = nil) {
        self.name = name
        self.content = content
        self.fileName = fileName
        self.mimeType = mimeType
    }
}
