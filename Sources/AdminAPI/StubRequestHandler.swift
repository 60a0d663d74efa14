import HTTPHandlerKit
import MockEngine

/// The HTTP adapter: `/__admin` requests go to the admin API, everything else to the engine.
package struct StubRequestHandler: HTTPHandler {
    let engine: StubEngine
    let router: AdminRouter

    package init(engine: StubEngine, router: AdminRouter) {
        self.engine = engine
        self.router = router
    }

    package func reply(to request: HTTPServerRequest) -> HTTPReply {
        AdminRouter.owns(request.path) ? router.reply(to: request) : engine.reply(to: request)
    }
}
