#if Tracing
    import FetchKit
    import FetchKitFixtures
    import FetchKitSQLite
    import FetchKitTestSupport
    import FetchKitTesting
    import Foundation
    import InMemoryTracing
    import Testing
    import Tracing

    /// A write's trace goes on through the store's controllers: `fetchkit.write` → `fetchkit.route` →
    /// `fetchkit.apply` → `fetchkit.deliver`, each the child of the one before, under the task's own span; a change
    /// no traced task wrote starts no span.
    ///
    /// Each test binds an in-memory tracer to its task (`withTracer`): the store's router and controllers, made in
    /// that task, inherit it; the rest of the test process traces nothing.
    @Suite("Tracing")
    struct TracingTests {
        /// A fetched controller of `request` with a recorder as its delegate.
        static func controller(
            _ store: SQLiteStore, _ predicate: FetchPredicate
        ) async throws -> (ResultsController<Row>, ResultsRecorder<Row>) {
            let controller = ResultsController(
                store: store,
                request: FetchRequest(entity: "Todo", predicate: predicate, sortDescriptors: [.ascending("id")]))
            let recorder = ResultsRecorder<Row>()
            controller.delegate = recorder
            try await controller.performFetch()
            return (controller, recorder)
        }

        @Test func aWriteInATracedTaskIsTracedThroughRouteApplyAndDeliver() async throws {
            let tracer = InMemoryTracer()
            let directory = try TemporaryDirectory()
            let path = directory.path("traced.sqlite")
            try await withTracer(tracer) {
                var options = SQLiteStore.Options.testing()
                options.label = "traced"
                let store = try await SQLiteStore.open(path: path, schema: Fixtures.schema, options: options)
                try await store.seed()
                // Two requests the write reaches, the second with a follower of the same request.
                let (open, openRecorder) = try await Self.controller(store, .key("done") == false)
                let (first, firstRecorder) = try await Self.controller(store, .key("priority") >= Int64(0))
                let (second, secondRecorder) = try await Self.controller(store, .key("priority") >= Int64(0))
                tracer.clearAll()
                try await withSpan("handle request") { _ in
                    try await store.write { tx in _ = try tx.update("Todo", key: 1, set: ["title": .text("traced")]) }
                }
                for (controller, recorder) in [(open, openRecorder), (first, firstRecorder), (second, secondRecorder)] {
                    #expect(try await ResultsOracle.converge(controller, recorder, in: store) > 0)
                }
                let written = store.lastTransactionID
                let trace = try #require(FinishedTrace(tracer, root: "handle request"))
                let chain = try #require(
                    trace.path(["fetchkit.write", "fetchkit.route", "fetchkit.apply", "fetchkit.deliver"]),
                    "spans: \(trace.spans.map { "\($0.operationName) \($0.spanID) ← \($0.parentSpanID ?? "-")" })")
                let (write, route) = (chain[1], chain[2])
                #expect(write.kind == .client)
                #expect(write.string("db.system.name") == "sqlite")
                #expect(write.string("db.namespace") == path)
                #expect(write.string("fetchkit.store") == "traced")
                #expect(route.kind == .consumer)
                #expect(route.int("fetchkit.transaction.id") == Int(written))
                #expect(route.string("fetchkit.tables") == "todo")
                // The two requests each apply the change once; the follower receives its leader's batch.
                let applies = trace.children(of: route, named: "fetchkit.apply")
                #expect(route.int("fetchkit.controllers") == applies.count)
                #expect(applies.count == 2, "apply spans: \(applies.map { $0.string("fetchkit.controller") ?? "?" })")
                for apply in applies {
                    #expect(apply.string("fetchkit.entity") == "Todo")
                    #expect(apply.string("db.system.name") == "sqlite")
                    #expect(trace.children(of: apply, named: "fetchkit.deliver").count == 1)
                }
                let followers = trace.spans(named: "fetchkit.deliver").map { $0.int("fetchkit.followers") ?? 0 }
                #expect(followers.sorted() == [0, 1])
                await store.close()
            }
        }

        @Test func aWriteOutsideATraceIsARootSpanAndAFailedWriteRecordsItsError() async throws {
            let tracer = InMemoryTracer()
            try await withTracer(tracer) {
                let store = try await SQLiteStore.inMemory(schema: Fixtures.schema, options: .testing())
                try await store.seed()
                let (controller, recorder) = try await Self.controller(store, .true)
                tracer.clearAll()
                try await store.write { tx in _ = try tx.update("Todo", key: 2, set: ["title": .text("untraced task")])
                }
                try await ResultsOracle.converge(controller, recorder, in: store)
                let trace = try #require(FinishedTrace(tracer, root: "fetchkit.write"))
                #expect(trace.path(["fetchkit.route", "fetchkit.apply", "fetchkit.deliver"]) != nil)
                #expect(trace.root?.string("db.namespace") == ":memory:")
                // A write that fails rolls back, publishes nothing, and its span says why.
                tracer.clearAll()
                await #expect(throws: FetchKitError.self) {
                    try await store.write { tx in
                        _ = try tx.update("Todo", key: 3, set: ["title": .text("rolled back")])
                        _ = try tx.insert(["id": .integer(1), "title": .text("duplicate key")], into: "Todo")
                    }
                }
                try await ResultsOracle.converge(controller, recorder, in: store)
                let failed = try #require(FinishedTrace(tracer, root: "fetchkit.write"))
                #expect(failed.root?.status?.code == .error)
                #expect(failed.root?.errors.count == 1)
                #expect(failed.spans(named: "fetchkit.route").isEmpty)
                await store.close()
            }
        }

        @Test func aChangeNoTracedTaskWroteStartsNoSpan() async throws {
            let tracer = InMemoryTracer()
            let directory = try TemporaryDirectory()
            let path = directory.path("foreign.sqlite")
            let seeded = try await SQLiteStore.open(path: path, schema: Fixtures.schema, options: .testing())
            try await seeded.seed()
            try await withTracer(tracer) {
                var options = SQLiteStore.Options.testing()
                options.dataVersionPollInterval = .milliseconds(20)
                let store = try await SQLiteStore.open(path: path, schema: Fixtures.schema, options: options)
                let (controller, recorder) = try await Self.controller(store, .true)
                tracer.clearAll()
                // Another connection to the file (another process, as far as this store can tell) writes.
                try await withTracer(NoOpTracer()) {
                    try await seeded.write { tx in
                        _ = try tx.update("Todo", key: 4, set: ["title": .text("written elsewhere")])
                    }
                }
                try await ResultsOracle.converge(controller, recorder, in: store)
                #expect(tracer.finishedSpans.isEmpty, "spans: \(tracer.finishedSpans.map(\.operationName))")
                await store.close()
            }
            await seeded.close()
        }
    }
#endif
