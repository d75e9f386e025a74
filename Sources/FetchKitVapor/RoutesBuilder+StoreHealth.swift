#if Vapor
    import FetchKit
    import Foundation
    import Vapor

    extension RoutesBuilder {
        /// Mounts a store's health for an orchestrator's probes: `GET <path>/live` and `GET <path>/ready` answer 200
        /// when the store is live or ready (``StoreHealth``) and 503 when not, with the health as JSON.
        ///
        /// ```swift
        /// app.storeHealth("health", store: store)
        /// // livenessProbe:  httpGet: { path: /health/live,  port: 8080 }
        /// // readinessProbe: httpGet: { path: /health/ready, port: 8080 }
        /// ```
        public func storeHealth(
            _ path: PathComponent..., store: any PersistentStore, lagThreshold: Duration = .seconds(5)
        ) {
            get(path + ["live"]) { _ in
                healthResponse(store.health(lagThreshold: lagThreshold), passed: \.isLive)
            }
            get(path + ["ready"]) { _ in
                healthResponse(store.health(lagThreshold: lagThreshold), passed: \.isReady)
            }
        }
    }

    /// 200 when `passed` holds of `health`, else 503; the health as JSON.
    private func healthResponse(_ health: StoreHealth, passed: KeyPath<StoreHealth, Bool>) -> Response {
        // Strings and booleans: encoding cannot fail.
        let body = (try? JSONEncoder().encode(health)) ?? Data("{}".utf8)
        return Response(
            status: health[keyPath: passed] ? .ok : .serviceUnavailable,
            headers: ["Content-Type": "application/json"], body: .init(data: body))
    }
#endif
