import Hummingbird
import Logging
import NIOCore
import PassgateAudit
import PassgateConfig
import PassgateConsole
import PassgateCore

/// What the usage and integration check pages read besides the console shell's parts.
struct ConsoleCheckDependencies: Sendable {
    /// The one-time-token exchange the API serves with: the integration check exchanges through it.
    var exchange: OneTimeTokenExchange
    /// Where the audit log is (the usage page reads it) and whether it is on.
    var audit: AuditSettings
    var logger: Logger
}

/// The console's Usage (`/console/usage`, `/console/usage.csv`) and Integration check
/// (`/console/check`) pages, added to the console's routes behind its session gate (which
/// refuses a POST without the session's CSRF token before it gets here) and its headers.
struct ConsoleCheckController {
    /// The shell: its layout, the session's CSRF token, the reloader and the clock.
    let console: ConsoleController
    /// The configuration served now (the reloader's).
    let configuration: @Sendable () async -> PassgateConfiguration
    let check: IntegrationCheck
    let usage: UsageView
    let auditEnabled: Bool

    init(console: ConsoleController, dependencies: ConsoleCheckDependencies) {
        self.console = console
        let reloader = console.reloader
        configuration = { await reloader.inEffect.configuration }
        check = IntegrationCheck(tokenExchange: dependencies.exchange, logger: dependencies.logger)
        usage = UsageView(audit: dependencies.audit, clock: console.clock)
        auditEnabled = dependencies.audit.enabled
    }

    var routes: RouteCollection<PassgateRequestContext> {
        let routes = RouteCollection(context: PassgateRequestContext.self)
        routes.get("check") { request, _ in try await checkPage(request, form: nil, requestId: nil) }
        routes.post("check") { request, context in
            struct Fields: Decodable {
                var appId: String?, token: String?, providerFields: String?, phoneNumber: String?, mode: String?
            }
            var request = request
            let fields = try await ConsoleForm.decode(Fields.self, from: &request)
            let form: [String: String?] = [
                "appId": fields.appId, "token": fields.token, "providerFields": fields.providerFields,
                "phoneNumber": fields.phoneNumber, "mode": fields.mode,
            ]
            return try await checkPage(request, form: form.compactMapValues { $0 }, requestId: context.requestId)
        }
        routes.get("usage") { request, _ in try await usagePage(request) }
        routes.get("usage.csv") { request, _ in try await usageCSV(request) }
        return routes
    }

    /// The check page; with `form`, the check it asks for first.
    private func checkPage(_ request: Request, form fields: [String: String]?, requestId: String?) async throws -> Response {
        let configuration = await configuration()
        var page = IntegrationCheckPage(
            apps: configuration.apps.map { ($0.appId, $0.provider) },
            fields: Dictionary(uniqueKeysWithValues: configuration.registry.ids.compactMap { id in
                configuration.registry[id].map { (id, $0.providerFields) }
            }),
            csrf: try console.csrf(request), selectedApp: fields?["appId"])
        var status = HTTPResponse.Status.ok
        if let fields, let requestId {
            do throws(IntegrationCheckForm.Problem) {
                let form = try IntegrationCheckForm(form: fields)
                page.mode = form.mode
                switch form.mode {
                case .explain: page.explained = try IntegrationCheck.explain(form, configuration: configuration)
                case .exchange: page.exchanged = try await check.exchange(form, configuration: configuration, requestId: requestId)
                }
            } catch {
                page.problem = error
                status = .badRequest
            }
        }
        return ConsoleResponse.html(
            console.layout.page(title: IntegrationCheckPage.title, path: IntegrationCheckPage.path, csrf: page.csrf, content: page.content), status: status)
    }

    private func usagePage(_ request: Request) async throws -> Response {
        let (from, to) = (request.uri.queryParameters.get("from"), request.uri.queryParameters.get("to"))
        var page = UsagePage(from: from ?? "", to: to ?? "")
        var status = HTTPResponse.Status.ok
        var query: UsageQuery?
        do throws(UsageView.Problem) {
            query = try usage.query(from: from, to: to)
        } catch {
            page.problem = error
            status = .badRequest
        }
        if let query {
            (page.from, page.to) = (query.from.description, query.to.description)
            do {
                page.report = try await usage.report(query)
                if !auditEnabled { page.unavailable = "The audit log is off (audit.enabled: false): calls are not being recorded now." }
            } catch let error as UsageReportError {
                page.unavailable = error.kind == .notFound && !auditEnabled
                    ? "The audit log is off (audit.enabled: false), so there is nothing to count." : error.message
            }
        }
        return ConsoleResponse.html(
            console.layout.page(title: UsagePage.title, path: UsagePage.path, csrf: try console.csrf(request), content: page.content), status: status)
    }

    /// `passgate usage --format csv`'s file for the range, as a download.
    private func usageCSV(_ request: Request) async throws -> Response {
        let query: UsageQuery
        do throws(UsageView.Problem) {
            query = try usage.query(from: request.uri.queryParameters.get("from"), to: request.uri.queryParameters.get("to"))
        } catch {
            return ConsoleResponse.html(
                ConsoleMessagePage.problem(layout: console.layout, title: "Usage", message: "\(error.field): \(error.message)", csrf: try console.csrf(request)),
                status: .badRequest)
        }
        let report: UsageReport
        do {
            report = try await usage.report(query)
        } catch let error as UsageReportError {
            return ConsoleResponse.html(
                ConsoleMessagePage.problem(layout: console.layout, title: "Usage", message: error.message, csrf: try console.csrf(request)),
                status: .serviceUnavailable)
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/csv; charset=utf-8",
                .contentDisposition: "attachment; filename=\"passgate-usage-\(query.from)-\(query.to).csv\"",
            ],
            body: .init(byteBuffer: ByteBuffer(string: report.csv())))
    }
}

/// The usage and integration check routes, as `METHOD /path`, for `passgateAdminRoutes`.
let passgateConsoleCheckRoutes: [String] = ["GET /console/check", "POST /console/check", "GET /console/usage", "GET /console/usage.csv"]
