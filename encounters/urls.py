from django.urls import path

from encounters import views

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
]
