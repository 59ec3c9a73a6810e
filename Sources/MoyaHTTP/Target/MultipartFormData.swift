#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One part of a `multipart/form-data` body.
public struct MultipartFormBodyPart: Sendable, Hashable {
    /// Where a part's bytes come from.
    public enum Provider: Sendable, Hashable {
        /// Bytes in memory.
        case data(Data)
        /// The contents of a local file.
        case file(URL)
    }

    /// The bytes.
    public var provider: Provider
    /// The form field name.
    public var name: String
    /// The file name sent in `Content-Disposition`, if any.
    public var fileName: String?
    /// The part's `Content-Type`, if any.
    public var mimeType: String?

    /// Creates a part.
    public init(provider: Provider, name: String, fileName: String? = nil, mimeType: String? = nil) {
        self.provider = provider
        self.name = name
        self.fileName = fileName
        self.mimeType = mimeType
    }
}

/// A `multipart/form-data` body: its parts and the boundary between them.
public struct MultipartFormData: Sendable, Hashable {
    /// The parts in order.
    public var parts: [MultipartFormBodyPart]
    /// The boundary string, without its leading dashes.
    public var boundary: String

    /// Creates a body; the boundary is random unless given.
    public init(parts: [MultipartFormBodyPart], boundary: String? = nil) {
        self.parts = parts
        self.boundary = boundary ?? Self.randomBoundary()
    }

    /// The `Content-Type` header value for this body.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// Builds the body bytes, reading file parts from disk.
    public func encode() throws -> Data {
        var body = Data()
        for part in parts {
            body.append(contentsOf: Array("--\(boundary)\r\n".utf8))
            var disposition = "Content-Disposition: form-data; name=\"\(Self.quoted(part.name))\""
            let fileName = part.fileName ?? Self.defaultFileName(for: part.provider)
            if let fileName { disposition += "; filename=\"\(Self.quoted(fileName))\"" }
            body.append(contentsOf: Array((disposition + "\r\n").utf8))
            if let mimeType = part.mimeType {
                body.append(contentsOf: Array("Content-Type: \(mimeType)\r\n".utf8))
            }
            body.append(contentsOf: Array("\r\n".utf8))
            switch part.provider {
            case .data(let data): body.append(data)
            case .file(let url): body.append(try Data(contentsOf: url))
            }
            body.append(contentsOf: Array("\r\n".utf8))
        }
        body.append(contentsOf: Array("--\(boundary)--\r\n".utf8))
        return body
    }

    private static func defaultFileName(for provider: MultipartFormBodyPart.Provider) -> String? {
        if case .file(let url) = provider { return url.lastPathComponent }
        return nil
    }

    private static func quoted(_ value: String) -> String {
        value.replacing("\"", with: "%22").replacing("\r", with: "%0D")
            .replacing("\n", with: "%0A")
    }

    private static func randomBoundary() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        return "moya.boundary." + String(high, radix: 16, uppercase: false)
    }
}
