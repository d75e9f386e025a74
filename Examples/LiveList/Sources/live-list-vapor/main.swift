// The live board on Vapor 4: the same page, store and sessions as the Hummingbird server.
// `swift run --traits Vapor live-list-vapor`; see Examples/LiveList/README.md.
#if Vapor
    import FetchKitSession
    import FetchKitVapor
    import LiveListModel
    import Vapor

    let settings = Settings()
    let app = try await Application.make(try Environment.detect())
    app.http.server.configuration.hostname = settings.host
    app.http.server.configuration.port = settings.port
    let store = try await Board.open(url: settings.store, tablePrefix: settings.tablePrefix)
    app.fetchKit.use(store)  // closed at shutdown, after every session closed with 1001
    app.middleware.use(FileMiddleware(publicDirectory: settings.publicDirectory, defaultFile: "index.html"))
    // A stand-in for the app's own sign-in: /signin?name=alice sets alice's cookie.
    app.get("signin") { req async throws -> Response in
        let name = (try? req.query.get(String.self, at: "name")) ?? ""
        guard let cookie = try await Board.signIn(name, store: store) else { return Response(status: .unauthorized) }
        return Response(status: .seeOther, headers: ["Location": "/", "Set-Cookie": cookie])
    }
    // One session per WebSocket: the member's team's cards, whatever the page asks for.
    // What each page holds, for pages that reconnect — across a restart too (read here, saved at the end).
    let resume = ResumeStore<Card>(archive: settings.resumeArchive, logger: app.logger)
    app.liveResults("cards", session: try Board.cards(in: store, resume: resume)) { req in
        try await Board.scope(cookie: req.headers.first(name: .cookie), store: store)
    }
    app.logger.info("open http://\(settings.host):\(settings.port)/ and sign in as alice, bob or carol")
    try await app.execute()
    try await app.asyncShutdown()
    try resume.save()
#endif
