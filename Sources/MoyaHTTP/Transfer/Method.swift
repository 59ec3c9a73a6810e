/// An HTTP method, spelled as Alamofire spells it.
public struct Method: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// `CONNECT`.
    public static let connect = Method(rawValue: "CONNECT")
    /// `DELETE`.
    public static let delete = Method(rawValue: "DELETE")
    /// `GET`.
    public static let get = Method(rawValue: "GET")
    /// `HEAD`.
    public static let head = Method(rawValue: "HEAD")
    /// `OPTIONS`.
    public static let options = Method(rawValue: "OPTIONS")
    /// `PATCH`.
    public static let patch = Method(rawValue: "PATCH")
    /// `POST`.
    public static let post = Method(rawValue: "POST")
    /// `PUT`.
    public static let put = Method(rawValue: "PUT")
    /// `QUERY`.
    public static let query = Method(rawValue: "QUERY")
    /// `TRACE`.
    public static let trace = Method(rawValue: "TRACE")

    /// Every method the spec format accepts, in documentation order.
    public static let allKnown: [Method] = [
        .get, .post, .put, .patch, .delete, .head, .options, .trace, .connect, .query,
    ]

    /// The other methods of IANA's HTTP Method Registry (RFC 9110, 16.1), WebDAV's and
    /// versioning's among them, which a spec may send as written, in capitals: an import keeps
    /// a collection's `COPY` or `PROPFIND`. (`PRI`, HTTP/2's preface, is no request's.)
    public static let registered: Set<String> = [
        "ACL", "BASELINE-CONTROL", "BIND", "CHECKIN", "CHECKOUT", "COPY", "LABEL", "LINK", "LOCK", "MERGE",
        "MKACTIVITY", "MKCALENDAR", "MKCOL", "MKREDIRECTREF", "MKWORKSPACE", "MOVE", "ORDERPATCH", "PROPFIND",
        "PROPPATCH", "REBIND", "REPORT", "SEARCH", "UNBIND", "UNCHECKOUT", "UNLINK", "UNLOCK", "UPDATE",
        "UPDATEREDIRECTREF", "VERSION-CONTROL",
    ]

    /// Whether a spec may send the method: one of `allKnown`, or a registered one.
    public var isSendable: Bool { Self.allKnown.contains(self) || Self.registered.contains(rawValue) }

    /// The method's name as sent on the wire.
    public let rawValue: String

    /// Creates a method from its wire name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Whether a multipart body makes sense for this method.
    public var supportsMultipart: Bool {
        switch self {
        case .post, .put, .patch, .connect: true
        default: false
        }
    }

    /// Whether sending the request twice has the effect of sending it once (RFC 9110, 9.2.2),
    /// so that a failed attempt may be retried.
    public var isIdempotent: Bool {
        switch self {
        case .get, .head, .put, .delete, .options, .trace, .query: true
        default: false
        }
    }

    /// Whether the method only reads and changes nothing: RFC 9110's safe methods less TRACE,
    /// which echoes the request back. What `mcp` offers without `--allow-writes`, and what a
    /// `live: false` check may not send either way.
    public var isReadOnly: Bool {
        switch self {
        case .get, .head, .options: true
        default: false
        }
    }

    /// The wire name.
    public var description: String { rawValue }
}
