from django.urls import include, path

urlpatterns = [path("cas/", include(("cas_server.urls", "cas_server"), namespace="cas_server"))]
