#if Tracing
    import FetchKit
    import FetchKitFixtures
    import FetchKitPostgres
    import FetchKitTestSupport
    import FetchKitTesting
    import InMemoryTracing
    import Testing
    import Tracing

    /// On PostgreSQL a write's change comes back through the feed (the trigger feed's notifications, the logical
    /// feed's log), on the feed's thread: it still joins the writer's trace, found by the transaction's ID.
    @Suite("PostgreSQL: tracing", .requiresPostgreSQL)
    struct PostgresTracingTests {
        @Test(arguments: [PostgresStore.ChangeFeedKind.triggers, .logical])
        func aWriteIsTracedThroughTheFeedToTheControllers(_ feed: PostgresStore.ChangeFeedKind) async throws {
            let tracer = InMemoryTracer()
            try await withTracer(tracer) {
                var options = PostgresStore.Options(readerCount: 2)
                options.changeFeed = feed
                options.label = "traced-\(feed)"
                let store = try await PostgresServer.isolatedStore(schema: Fixtures.schema, options: options)
                try await store.write { tx in try Fixtures.insertSampleData(tx) }
                let (controller, recorder) = try await PostgresLiveResultsTests.liveController(on: store)
                try await PostgresLiveResultsTests.converge(controller, recorder, in: store)
                tracer.clearAll()
                try await withSpan("handle request") { _ in
                    try await store.write { tx in _ = try tx.insert(Fixtures.TodoRecord(title: "traced")) }
                }
                try await PostgresLiveResultsTests.converge(controller, recorder, in: store)
                let trace = try #require(FinishedTrace(tracer, root: "handle request"))
                let chain = try #require(
                    trace.path(["fetchkit.write", "fetchkit.route", "fetchkit.apply", "fetchkit.deliver"]),
                    "spans: \(trace.spans.map { "\($0.operationName) \($0.spanID) ← \($0.parentSpanID ?? "-")" })")
                let write = chain[1]
                #expect(write.kind == .client)
                #expect(write.string("db.system.name") == "postgresql")
                #expect(write.string("db.namespace") != nil)
                #expect(write.string("fetchkit.store") == "traced-\(feed)")
                #expect(chain[2].string("db.system.name") == "postgresql")
                await store.close()
            }
        }
    }
#endif
