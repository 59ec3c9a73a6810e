/// How a target's parameters and body are put into its request.
public enum Task {
    /// A request with no body and no extra parameters.
    case requestPlain

    /// A body of raw data.
    case requestData(Data)

    /// A body encoded as JSON from an `Encodable` value, with a default `JSONEncoder`.
    case requestJSONEncodable(Encodable)

    /// A body encoded as JSON from an `Encodable` value with the given encoder.
    case requestCustomJSONEncodable(Encodable, encoder: JSONEncoder)

    /// Parameters placed by a parameter encoding.
    case requestParameters(parameters: [String: Any], encoding: ParameterEncoding)

    /// A raw body, with URL parameters in the query.
    case requestCompositeData(bodyData: Data, urlParameters: [String: Any])

    /// Body parameters in their own encoding, with URL parameters in the query. The body
    /// encoding must put its parameters in the body.
    case requestCompositeParameters(
        bodyParameters: [String: Any], bodyEncoding: ParameterEncoding, urlParameters: [String: Any])

    /// A body streamed from a local file.
    case uploadFile(URL)

    /// A `multipart/form-data` body.
    case uploadMultipartFormData(MultipartFormData)

    /// A `multipart/form-data` body from its parts.
    @available(*, deprecated, message: "use `uploadMultipartFormData(MultipartFormData)` instead")
    case uploadMultipart([MultipartFormBodyPart])

    /// A `multipart/form-data` body, with URL parameters in the query.
    case uploadCompositeMultipartFormData(MultipartFormData, urlParameters: [String: Any])

    /// A `multipart/form-data` body from its parts, with URL parameters in the query.
    @available(*, deprecated, message: "use `uploadCompositeMultipartFormData(MultipartFormData)` instead")
    case uploadCompositeMultipart([MultipartFormBodyPart], urlParameters: [String: Any])

    /// A download moved to a destination.
    case downloadDestination(DownloadDestination)

    /// A download moved to a destination, with encoded parameters.
    case downloadParameters(parameters: [String: Any], encoding: ParameterEncoding, destination: DownloadDestination)
}
