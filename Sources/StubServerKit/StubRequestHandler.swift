import HTTPHandlerKit
import HTTPServerKit

/// The HTTP adapter: `/__admin` requests go to the admin API, everything else to the engine.
struct StubRequestHandler: HTTPHandler {
    let engine: StubEngine
    let router: AdminRouter

    func reply(to request: HTTPServerRequest) -> HTTPReply {
        AdminRouter.owns(request.path) ? router.reply(to: request) : engine.reply(to: request)
    }
}
