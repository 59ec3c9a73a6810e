// `import Moya` gives a file Foundation, and FoundationNetworking where URLRequest lives
// apart from it, as `import Moya` does on Apple platforms.
@_exported import Foundation
import MoyaCore

#if canImport(FoundationNetworking)
    @_exported import FoundationNetworking
#endif

/// An HTTP method: `.get`, `.post` and the rest, as Alamofire's `HTTPMethod`.
public typealias Method = MoyaCore.Method

/// Which status codes a response may have to count as a success.
public typealias ValidationType = MoyaCore.ValidationType

/// Whether and how a request is answered from its sample instead of the network.
public typealias StubBehavior = MoyaCore.StubBehavior

/// The transport a provider sends its requests with, in place of Alamofire's `Session`.
public typealias Session = MoyaCore.Session

/// A JSON value whose object members keep their order: what `moya-cli generate swift`
/// builds bodies and samples with, so that they are the bytes `call` sends.
public typealias JSONValue = MoyaCore.JSONValue

/// Parameters for a request, as Alamofire names them.
public typealias Parameters = [String: Any]

/// Where a download is moved once it has arrived whole: given the temporary file and the
/// response, the final URL and how to put the file there.
public typealias DownloadDestination =
    (_ temporaryURL: URL, _ response: HTTPURLResponse) -> (destinationURL: URL, options: DownloadOptions)

/// How a download is moved to its destination, as Alamofire's `DownloadRequest.Options`.
public struct DownloadOptions: OptionSet {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Creates the destination's missing directories.
    public static let createIntermediateDirectories = DownloadOptions(rawValue: 1 << 0)
    /// Replaces a file already at the destination.
    public static let removePreviousFile = DownloadOptions(rawValue: 1 << 1)
}

#if !canImport(Darwin)
    // What Apple's Foundation has and Linux's lacks, which Moya code uses.

    extension HTTPURLResponse {
        /// A 200 response for `url`, as Apple's Foundation makes one from a URL response's
        /// fields. (Generic over the length only because Linux's `URLResponse` declares this
        /// initializer without passing it on.)
        public convenience init?<Length: BinaryInteger>(
            url: URL, mimeType: String?, expectedContentLength: Length, textEncodingName: String?
        ) {
            var headers: [String: String] = [:]
            if let mimeType { headers["Content-Type"] = mimeType }
            if expectedContentLength >= 0 { headers["Content-Length"] = String(expectedContentLength) }
            self.init(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: headers)
        }
    }

    /// File managers are equal when they are the same object, as `NSObject`s are on Apple
    /// platforms, where `FileManager` is one.
    extension FileManager: @retroactive Equatable {
        public static func == (lhs: FileManager, rhs: FileManager) -> Bool { lhs === rhs }
    }
#endif
