import Foundation
import PassgateCore

/// A JVerification request: JSON over POST with HTTP Basic authentication (`appKey:masterSecret`).
public struct JVerificationRequest: Sendable, RedactedDescription {
    /// The login API of each version; v2 also answers a risk score.
    public static func loginPath(apiVersion: Int) -> String { apiVersion == 2 ? "/v2/web/loginTokenVerify" : "/v1/web/loginTokenVerify" }
    public static let verifyPath = "/v1/web/verify"

    public let path: String
    public let body: [UInt8]
    /// The `exID` we sent (Passgate's request id), which the reply echoes.
    public let exID: String
    public let authorization: String
    /// The app's own base URL (a reseller's), or nil for the provider's.
    public var baseURL: String?

    /// `POST /v{1,2}/web/loginTokenVerify` (or the app's own endpoint) `{"loginToken", "exID"}`.
    public static func login(app: JVerificationApp, token: String, exID: String) -> JVerificationRequest {
        var json = JSONObjectWriter()
        json.add("loginToken", token)
        json.add("exID", exID)
        return JVerificationRequest(
            path: app.endpoint?.path ?? loginPath(apiVersion: app.apiVersion), body: json.finish(), exID: exID, authorization: authorization(app),
            baseURL: app.endpoint?.baseURL)
    }

    /// `POST /v1/web/verify` `{"token", "phone", "exID"}`, at the app's own base URL when it names one.
    public static func verify(app: JVerificationApp, token: String, phoneNumber: String, exID: String) -> JVerificationRequest {
        var json = JSONObjectWriter()
        json.add("token", token)
        json.add("phone", phoneNumber)
        json.add("exID", exID)
        return JVerificationRequest(path: verifyPath, body: json.finish(), exID: exID, authorization: authorization(app), baseURL: app.endpoint?.baseURL)
    }

    /// `Basic base64(appKey:masterSecret)`.
    public static func authorization(_ app: JVerificationApp) -> String {
        "Basic " + Data("\(app.appKey):\(app.masterSecret)".utf8).base64EncodedString()
    }

    /// As the provider sends it.
    public var providerRequest: ProviderRequest {
        ProviderRequest(
            method: .post, path: path,
            headers: [("Authorization", authorization), ("Content-Type", "application/json; charset=utf-8"), ("Accept", "application/json")],
            body: body, msgid: exID, baseURL: baseURL)
    }
}

extension JVerificationRequest {
    /// The body holds the token and `authorization` the master secret: path and exID only.
    public var redactedFields: [(label: String, value: String)] { [("path", path), ("exID", exID), ("baseURL", baseURL ?? "the provider's")] }
}
