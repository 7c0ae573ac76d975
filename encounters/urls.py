from django.urls import path

from encounters import fleet_views, views

app_name = "encounters"

#: Mounted at /campaigns/<id>/encounters/ by config/urls.py.
urlpatterns = [
    path("", views.encounter_list, name="list"),
    path("<id:encounter_id>/", views.page, name="page"),
    path("<id:encounter_id>/step/", views.step, name="step"),
    path("<id:encounter_id>/undo/", views.undo, name="undo"),
    path("<id:encounter_id>/end/", views.end, name="end"),
    path("<id:encounter_id>/add/", views.add, name="add"),
    path("<id:encounter_id>/live/", views.live, name="live"),
    path("<id:encounter_id>/log/", views.log, name="log"),
    # Fleet actions: capital ship battles ([RC], encounters/fleet_views.py).
    path("fleet/", fleet_views.fleet_list, name="fleet_list"),
    path("fleet/<id:fleet_id>/", fleet_views.fleet_page, name="fleet_page"),
    path("fleet/<id:fleet_id>/step/", fleet_views.fleet_step, name="fleet_step"),
    path("fleet/<id:fleet_id>/ships/", fleet_views.fleet_ship, name="fleet_ship"),
    path("fleet/<id:fleet_id>/undo/", fleet_views.fleet_undo, name="fleet_undo"),
    path("fleet/<id:fleet_id>/live/", fleet_views.fleet_live, name="fleet_live"),
]
