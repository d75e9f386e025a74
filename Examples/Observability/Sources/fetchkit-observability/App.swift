import FetchKit
import FetchKitHummingbird
import FetchKitPostgres
import FetchKitSQLite
import Foundation
import Hummingbird
import Logging
import Metrics
import OTel
import Prometheus
import ServiceLifecycle
import Tracing

/// An app that exports FetchKit's metrics and spans: Prometheus scrapes `GET /metrics`, spans go over OTLP/HTTP to
/// the collector `OTEL_EXPORTER_OTLP_ENDPOINT` names (http://localhost:4318 by default), and the store's health
/// answers at `/health/live` and `/health/ready`.
///
/// Its store is PostgreSQL when `DATABASE_URL` is set, else a SQLite file. It keeps
/// `CONTROLLERS` live controllers (100) and writes `WRITES_PER_SECOND` times a second (20), each write in a span
/// of its own as a request handler's would be; `POST /tasks/{id}/done` writes from a traced request. It stops after
/// `RUN_SECONDS` when set. `CHANGE_FEED` (`triggers`, `logical`, `auto`) picks PostgreSQL's feed.
@main
struct App {
    static func main() async throws {
        let environment = ProcessInfo.processInfo.environment
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        // Metrics first: a store makes its handles when it opens, from the backend bootstrapped then.
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        var otel = OTel.Configuration.default
        otel.serviceName = "fetchkit-observability"
        otel.metrics.enabled = false
        otel.logs.enabled = false
        otel.traces.otlpExporter.protocol = .httpProtobuf
        otel.traces.batchSpanProcessor.scheduleDelay = .milliseconds(500)
        let tracing = try OTel.bootstrap(configuration: otel)

        let store = try await openStore(environment)
        let workload = Workload(
            store: store, controllers: Int(environment["CONTROLLERS"] ?? "") ?? 100,
            writesPerSecond: Int(environment["WRITES_PER_SECOND"] ?? "") ?? 20)
        try await workload.start()

        let router = Router()
        router.middlewares.add(TracingMiddleware())
        router.get("metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
        router.storeHealth("/health", store: store)
        router.post("tasks/:id/done") { _, context -> HTTPResponse.Status in
            let id = try context.parameters.require("id", as: Int64.self)
            try await store.write { tx in _ = try tx.update("Task", key: .integer(id), set: ["done": true]) }
            return .noContent
        }
        let port = Int(environment["PORT"] ?? "") ?? 8080
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
        let logger = Logger(label: "fetchkit-observability")
        let group = ServiceGroup(
            configuration: .init(services: [tracing, app, workload], logger: logger))
        if let seconds = environment["RUN_SECONDS"].flatMap(Double.init) {
            try await withThrowingTaskGroup { tasks in
                tasks.addTask { try await group.run() }
                try await Task.sleep(for: .seconds(seconds))
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
        } else {
            try await group.run()
        }
        await store.close()
    }

    /// PostgreSQL at `DATABASE_URL`, else a SQLite file in the temporary directory.
    static func openStore(_ environment: [String: String]) async throws -> any PersistentStore {
        if let url = environment["DATABASE_URL"] {
            var options = PostgresStore.Options()
            options.label = "tasks"
            if let feed = environment["CHANGE_FEED"].flatMap(PostgresStore.ChangeFeedKind.init(rawValue:)) {
                options.changeFeed = feed
            }
            return try await PostgresStore.open(url: url, schema: Workload.schema, options: options)
        }
        var options = SQLiteStore.Options()
        options.label = "tasks"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fetchkit-observability.sqlite").path
        return try await SQLiteStore.open(path: path, schema: Workload.schema, options: options)
    }
}
