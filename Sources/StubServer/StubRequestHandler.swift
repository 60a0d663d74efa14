import HTTPServer

/// The HTTP adapter: `/__admin` requests go to the admin API, everything else to the engine.
struct StubRequestHandler: HTTPHandler {
    let engine: StubEngine
    let router: AdminRouter

    func handle(_ request: HTTPServerRequest, responder: HTTPResponder) {
        if AdminRouter.owns(request.path) {
            router.handle(request, responder: responder)
        } else {
            engine.serve(request, responder: responder)
        }
    }
}
