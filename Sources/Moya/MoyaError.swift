/// Everything that can go wrong with a request.
public enum MoyaError: Swift.Error {
    /// The response could not be mapped to an image.
    case imageMapping(Response)
    /// The response could not be mapped to JSON.
    case jsonMapping(Response)
    /// The response could not be mapped to a string.
    case stringMapping(Response)
    /// The response could not be decoded into an object.
    case objectMapping(Swift.Error, Response)
    /// An `Encodable` body could not be encoded.
    case encodableMapping(Swift.Error)
    /// The status code did not pass a filter.
    case statusCode(Response)
    /// The transport or a stub failed, or the status code failed validation, with the
    /// response if one arrived.
    case underlying(Swift.Error, Response?)
    /// The endpoint could not be turned into a request.
    case requestMapping(String)
    /// Parameters could not be encoded.
    case parameterEncoding(Swift.Error)
}

extension MoyaError {
    /// The response involved in the error, if any.
    public var response: Moya.Response? {
        switch self {
        case .imageMapping(let response), .jsonMapping(let response), .stringMapping(let response),
            .objectMapping(_, let response), .statusCode(let response):
            response
        case .underlying(_, let response): response
        case .encodableMapping, .requestMapping, .parameterEncoding: nil
        }
    }

    /// The error underneath, if any.
    var underlyingError: Swift.Error? {
        switch self {
        case .objectMapping(let error, _), .encodableMapping(let error), .underlying(let error, _),
            .parameterEncoding(let error):
            error
        case .imageMapping, .jsonMapping, .stringMapping, .statusCode, .requestMapping: nil
        }
    }
}

extension MoyaError: LocalizedError {
    /// Moya's sentence for each error.
    public var errorDescription: String? {
        switch self {
        case .imageMapping: "Failed to map data to an Image."
        case .jsonMapping: "Failed to map data to JSON."
        case .stringMapping: "Failed to map data to a String."
        case .objectMapping: "Failed to map data to a Decodable object."
        case .encodableMapping: "Failed to encode Encodable object into data."
        case .statusCode: "Status code didn't fall within the given range."
        case .underlying(let error, _): error.localizedDescription
        case .requestMapping: "Failed to map Endpoint to a URLRequest."
        case .parameterEncoding(let error):
            "Failed to encode parameters for URLRequest. \(error.localizedDescription)"
        }
    }
}

extension MoyaError: CustomNSError {
    /// The description under `NSLocalizedDescriptionKey` and the error underneath under
    /// `NSUnderlyingErrorKey`.
    public var errorUserInfo: [String: Any] {
        var userInfo: [String: Any] = [:]
        userInfo[NSLocalizedDescriptionKey] = errorDescription
        userInfo[NSUnderlyingErrorKey] = underlyingError
        return userInfo
    }
}
