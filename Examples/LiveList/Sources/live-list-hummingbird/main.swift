// The live board on Hummingbird 2: each signed-in member's page shows their team's cards, kept equal to the
// database and reordered by drag. `swift run --traits Hummingbird live-list-hummingbird`; see
// Examples/LiveList/README.md.
#if Hummingbird
    import FetchKitHummingbird
    import FetchKitSession
    import Hummingbird
    import HummingbirdWebSocket
    import LiveListModel
    import Logging
    import ServiceLifecycle

    let settings = Settings()
    let logger = Logger(label: "live-list")
    let store = try await Board.open(url: settings.store, tablePrefix: settings.tablePrefix)
    let sessions = LiveSessionGroup()
    // What each page holds, for pages that reconnect — across a restart too (read here, saved at the end).
    let resume = ResumeStore<Card>(archive: settings.resumeArchive, logger: logger)
    var cards = try Board.cards(in: store, resume: resume)
    cards.sessions = sessions

    let router = Router(context: BasicWebSocketRequestContext.self)
    router.add(middleware: FileMiddleware(settings.publicDirectory, searchForIndexHtml: true, logger: logger))
    // A stand-in for the app's own sign-in: /signin?name=alice sets alice's cookie.
    router.get("/signin") { request, _ -> Response in
        let name = request.uri.queryParameters.get("name") ?? ""
        guard let cookie = try await Board.signIn(name, store: store) else { return Response(status: .unauthorized) }
        return Response(status: .seeOther, headers: [.location: "/", .setCookie: cookie])
    }
    // One session per WebSocket: the member's team's cards, whatever the page asks for.
    router.liveResults("/cards", cards) { request, _ in
        try await Board.scope(cookie: request.headers[.cookie], store: store)
    }

    let app = Application(
        router: router, server: .http1WebSocketUpgrade(webSocketRouter: router),
        configuration: .init(address: .hostname(settings.host, port: settings.port)), logger: logger)
    logger.info("open http://\(settings.host):\(settings.port)/ and sign in as alice, bob or carol")
    // On SIGTERM or Ctrl-C the sessions close first with 1001 (pages resume), then the server, then the store.
    try await ServiceGroup(
        services: [store, app, sessions], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger
    ).run()
    try resume.save()
#endif
