#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where a download is written once it has arrived whole.
public typealias DownloadDestination = @Sendable (_ temporaryURL: URL, _ response: ResponseHead) -> URL

/// How a target's parameters and body are put into its request.
public enum Task: Sendable {
    /// A request with no body and no extra parameters.
    case requestPlain

    /// A body of raw data.
    case requestData(Data)

    /// A body encoded as JSON from an `Encodable` value, with a default `JSONEncoder`.
    case requestJSONEncodable(any Encodable & Sendable)

    /// A body encoded as JSON from an `Encodable` value with the given encoder.
    case requestCustomJSONEncodable(any Encodable & Sendable, encoder: JSONEncoder)

    /// Parameters placed by a parameter encoding.
    case requestParameters(parameters: Parameters, encoding: any ParameterEncoding)

    /// A raw body, with URL parameters in the query.
    case requestCompositeData(bodyData: Data, urlParameters: Parameters)

    /// Body parameters in their own encoding, with URL parameters in the query.
    case requestCompositeParameters(
        bodyParameters: Parameters, bodyEncoding: any ParameterEncoding, urlParameters: Parameters)

    /// A body streamed from a local file.
    case uploadFile(URL)

    /// A `multipart/form-data` body.
    case uploadMultipartFormData(MultipartFormData)

    /// A `multipart/form-data` body, with URL parameters in the query.
    case uploadCompositeMultipartFormData(MultipartFormData, urlParameters: Parameters)

    /// A download written to a destination.
    case downloadDestination(DownloadDestination)

    /// A download written to a destination, with encoded parameters.
    case downloadParameters(
        parameters: Parameters, encoding: any ParameterEncoding, destination: DownloadDestination)
}
