import HTTPTypes
import Hummingbird
import NIOCore
import Prometheus

/// `GET /metrics`: the instance's Prometheus registry in text exposition format.
struct MetricsController {
    let registry: PrometheusCollectorRegistry

    func register(on router: Router<PassgateRequestContext>) {
        router.get("metrics") { _, context in
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
    }
}
